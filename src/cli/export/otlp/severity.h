/* SPDX-License-Identifier: MIT */
/*
 * A syslog severity as an OTLP log record's severity: the OpenTelemetry
 * logs data model, Appendix B ("SeverityNumber example mappings"), maps
 * emerg..debug to FATAL(21), ERROR3(19), ERROR2(18), ERROR(17), WARN(13),
 * INFO2(10), INFO(9), DEBUG(5).  The text is the name syslog gives it.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SEVERITY_H
#define EHSYSLOG_CLI_EXPORT_SEVERITY_H

/* The SeverityNumber of syslog severity sev (0..7); 0 (UNSPECIFIED) for
 * any other value. */
int otlp_severity_number(unsigned sev);

/* "emerg" .. "debug"; NULL for a value outside 0..7. */
const char *otlp_severity_text(unsigned sev);

#endif
