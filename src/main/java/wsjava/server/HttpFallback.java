package wsjava.server;

import java.util.Collections;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpResponses;

/**
 * What a plain HTTP request on the WebSocket port gets: the application's own page at {@code /}
 * when it gave one, else the demo page (unless turned off), 404 elsewhere, 405 for methods other
 * than GET and HEAD. HEAD gets GET's head.
 */
final class HttpFallback {

    private final byte[] page;

    /** {@code page}: the HTML to serve at {@code /}, or null for none. */
    HttpFallback(byte[] page) {
        this.page = page;
    }

    byte[] answer(HttpRequest request) {
        boolean head = "HEAD".equals(request.method());
        if (!head && !"GET".equals(request.method())) {
            return HttpResponses.plain(405, "only GET and HEAD are served here\n", Collections.singletonMap("Allow", "GET, HEAD"));
        }
        if (page != null && (request.path().equals("/") || request.path().equals("/index.html"))) {
            return HttpResponses.response(200, "text/html; charset=utf-8", page, Collections.emptyMap(), !head);
        }
        return HttpResponses.plain(404, "no such page: " + request.path() + "\n", Collections.emptyMap(), !head);
    }
}
