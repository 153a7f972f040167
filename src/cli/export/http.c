/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <curl/curl.h>

#include "cli/export/backoff.h"
#include "cli/export/http.h"
#include "cli/export/secret_file.h"

struct http {
	CURLM *multi;	/* runs the request while the caller goes on */
	CURL *curl;
	struct curl_slist *headers;
	struct http_answer *answer;	/* of the request in flight; NULL: none */
	uint8_t *request;	/* its body, freed once it ended */
	uint8_t *body;	/* the answer's body, HTTP_BODY_MAX bytes */
	size_t body_len;
};

/* A header line onto the request's headers. */
static bool add_header(struct http *h, const char *line)
{
	struct curl_slist *l = curl_slist_append(h->headers, line);

	if (l == NULL)
		return false;
	h->headers = l;
	return true;
}

/* path, opened for reading once it passes secret_file.h's rule; NULL,
 * with err said, else.  Opened without blocking, so that a FIFO is
 * refused rather than waited on; reading blocks again once it passed. */
static FILE *open_secret(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	const char *why;
	struct stat st;
	FILE *f = NULL;
	int flags;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else if ((why = secret_file_refusal(&st, geteuid())) != NULL) {
		snprintf(err, errlen, "%s: refused: %s (owner %u, mode %04o); it holds tokens: "
			 "make it the owner's or root's, mode 0600 or 0640",
			 path, why, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	} else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
		   (f = fdopen(fd, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	if (f == NULL && fd >= 0)
		close(fd);
	return f;
}

/* Adds each "Name: value" line of path; blank lines and '#' comments are
 * skipped.  The file keeps tokens off the command line (ps shows that). */
static int read_headers(struct http *h, const char *path, char *err, size_t errlen)
{
	FILE *f = open_secret(path, err, errlen);
	char line[8192];
	unsigned n = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		size_t len = strlen(line);

		n++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (strchr(line, ':') == NULL || line[0] == ':' || isspace((unsigned char)line[0])) {
			snprintf(err, errlen, "%s:%u: not a \"Name: value\" header", path, n);
			fclose(f);
			return -1;
		}
		if (!add_header(h, line)) {
			snprintf(err, errlen, "out of memory");
			fclose(f);
			return -1;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* The value of header line buf[0..len) into value (cap bytes, line end
 * dropped) when the line is header name ("name:", lower case).  False
 * for another header, or a value too long to be one we read. */
static bool header_value(const char *buf, size_t len, const char *name, char *value, size_t cap)
{
	size_t nlen = strlen(name), vlen;

	if (len <= nlen || len - nlen >= cap || strncasecmp(buf, name, nlen) != 0)
		return false;
	vlen = len - nlen;
	memcpy(value, buf + nlen, vlen);
	while (vlen > 0 && (value[vlen - 1] == '\n' || value[vlen - 1] == '\r'))
		vlen--;
	value[vlen] = '\0';
	return true;
}

/* "Application/JSON; charset=utf-8" as "application/json". */
static void media_type(const char *value, char *out, size_t cap)
{
	size_t n = 0;

	value += strspn(value, " \t");
	for (; *value != '\0' && *value != ';' && *value != ' ' && n + 1 < cap; value++)
		out[n++] = (char)tolower((unsigned char)*value);
	out[n] = '\0';
}

static size_t on_header(char *buf, size_t size, size_t n, void *arg)
{
	struct http *h = arg;
	size_t len = size * n;
	char value[128];

	/* A new status line (after a 100 Continue, say): a new answer. */
	if (len >= 5 && strncmp(buf, "HTTP/", 5) == 0) {
		h->answer->retry_after_ms = -1;
		h->answer->content_type[0] = '\0';
	} else if (header_value(buf, len, "retry-after:", value, sizeof value)) {
		h->answer->retry_after_ms = retry_after_ms(value, time(NULL));
	} else if (header_value(buf, len, "content-type:", value, sizeof value)) {
		media_type(value, h->answer->content_type, sizeof h->answer->content_type);
	}
	return len;
}

/* The answer's body: a partial_success or an error's Status, perhaps.
 * Past HTTP_BODY_MAX it is read, not kept, and the answer marked cut. */
static size_t on_body(char *buf, size_t size, size_t n, void *arg)
{
	struct http *h = arg;
	size_t len = size * n, room = HTTP_BODY_MAX - h->body_len;

	memcpy(h->body + h->body_len, buf, len < room ? len : room);
	h->body_len += len < room ? len : room;
	if (len > room)
		h->answer->body_cut = true;
	return len;
}

struct http *http_new(const struct http_config *cfg, char *err, size_t errlen)
{
	struct http *h = calloc(1, sizeof *h);
	char type[128], encoding[128];

	if (h == NULL || (h->body = malloc(HTTP_BODY_MAX)) == NULL) {
		snprintf(err, errlen, "out of memory");
		free(h);
		return NULL;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(err, errlen, "cannot set up libcurl");
		free(h->body);
		free(h);
		return NULL;
	}
	if ((h->curl = curl_easy_init()) == NULL || (h->multi = curl_multi_init()) == NULL) {
		snprintf(err, errlen, "cannot set up libcurl");
		goto fail;
	}
	if (cfg->header_file != NULL && read_headers(h, cfg->header_file, err, errlen) < 0)
		goto fail;
	/* "Expect:" keeps curl from waiting for a 100 Continue before
	 * large bodies: collectors answer the request itself. */
	snprintf(type, sizeof type, "Content-Type: %s", cfg->content_type);
	snprintf(encoding, sizeof encoding, "Content-Encoding: %s",
		 cfg->content_encoding != NULL ? cfg->content_encoding : "");
	if (!add_header(h, "Expect:") || !add_header(h, type) ||
	    (cfg->content_encoding != NULL && !add_header(h, encoding))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (curl_easy_setopt(h->curl, CURLOPT_URL, cfg->url) != CURLE_OK) {
		snprintf(err, errlen, "bad endpoint URL '%s'", cfg->url);
		goto fail;
	}
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(h->curl, CURLOPT_POST, 1L);
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_USERAGENT, PACKAGE_NAME "-export/" PACKAGE_VERSION);
	curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT_MS, cfg->connect_timeout_ms);
	curl_easy_setopt(h->curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h->curl, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	if (cfg->ca_file != NULL)
		curl_easy_setopt(h->curl, CURLOPT_CAINFO, cfg->ca_file);
	if (cfg->cert_file != NULL)
		curl_easy_setopt(h->curl, CURLOPT_SSLCERT, cfg->cert_file);
	if (cfg->key_file != NULL)
		curl_easy_setopt(h->curl, CURLOPT_SSLKEY, cfg->key_file);
	return h;
fail:
	http_free(h);
	return NULL;
}

int http_start(struct http *h, uint8_t *body, size_t len, long timeout_ms,
	       struct http_answer *a)
{
	CURLMcode rc;

	memset(a, 0, sizeof *a);
	a->retry_after_ms = -1;
	h->body_len = 0;
	curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(h->curl, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
	rc = curl_multi_add_handle(h->multi, h->curl);
	if (rc != CURLM_OK) {
		snprintf(a->error, sizeof a->error, "%s", curl_multi_strerror(rc));
		free(body);
		return -1;
	}
	h->answer = a;
	h->request = body;
	return 0;
}

/* The request in flight has ended: failed, saying error, or (NULL)
 * answered.  Its answer completed, the handle ready for the next. */
static void request_ended(struct http *h, const char *error)
{
	struct http_answer *a = h->answer;

	/* Fails only for a handle that is not in the multi: it is. */
	(void)curl_multi_remove_handle(h->multi, h->curl);
	free(h->request);
	h->request = NULL;
	h->answer = NULL;
	if (error != NULL) {
		snprintf(a->error, sizeof a->error, "%s", error);
		return;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &a->status);
	a->body = h->body;
	a->body_len = h->body_len;
}

bool http_run(struct http *h)
{
	CURLMcode rc;
	CURLMsg *m;
	int running, left;

	if (h->answer == NULL)
		return true;
	rc = curl_multi_perform(h->multi, &running);
	if (rc != CURLM_OK) {
		request_ended(h, curl_multi_strerror(rc));
		return true;
	}
	while ((m = curl_multi_info_read(h->multi, &left)) != NULL) {
		if (m->msg == CURLMSG_DONE && m->easy_handle == h->curl) {
			CURLcode result = m->data.result;

			request_ended(h, result == CURLE_OK ? NULL : curl_easy_strerror(result));
			return true;
		}
	}
	return false;
}

int http_wait(struct http *h, long wait_ms)
{
	if (wait_ms > INT_MAX)
		wait_ms = INT_MAX;
	return curl_multi_poll(h->multi, NULL, 0, (int)wait_ms, NULL) == CURLM_OK ? 0 : -1;
}

void http_free(struct http *h)
{
	if (h == NULL)
		return;
	if (h->answer != NULL)	/* abandoned: at exit, after the flush timeout */
		(void)curl_multi_remove_handle(h->multi, h->curl);
	free(h->request);
	if (h->curl != NULL)
		curl_easy_cleanup(h->curl);
	if (h->multi != NULL)
		curl_multi_cleanup(h->multi);
	curl_slist_free_all(h->headers);
	curl_global_cleanup();
	free(h->body);
	free(h);
}
