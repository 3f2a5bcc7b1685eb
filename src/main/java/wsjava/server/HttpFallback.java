package wsjava.server;

import java.util.Collections;
import wsjava.protocol.HttpRequest;
import wsjava.protocol.HttpResponses;

/**
 * What a plain HTTP request on the WebSocket port gets: the demo page at {@code /} (unless turned
 * off), 404 elsewhere, 405 for methods other than GET and HEAD. HEAD gets GET's head.
 */
final class HttpFallback {

    private final boolean serveDemoPage;

    HttpFallback(boolean serveDemoPage) {
        this.serveDemoPage = serveDemoPage;
    }

    byte[] answer(HttpRequest request) {
        boolean head = "HEAD".equals(request.method());
        if (!head && !"GET".equals(request.method())) {
            return HttpResponses.plain(405, "only GET and HEAD are served here\n", Collections.singletonMap("Allow", "GET, HEAD"));
        }
        if (serveDemoPage && (request.path().equals("/") || request.path().equals("/index.html"))) {
            return HttpResponses.response(200, "text/html; charset=utf-8", DemoPage.html(), Collections.emptyMap(), !head);
        }
        return HttpResponses.plain(404, "no such page: " + request.path() + "\n", Collections.emptyMap(), !head);
    }
}
