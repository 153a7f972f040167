/* An empty shared object: scripts/bench preloads it into /bin/true as the
 * reference for start-up cost, so that what the loader itself does to map
 * any preloaded file is not counted against libehsyslog.so. */
int bench_empty_object;
