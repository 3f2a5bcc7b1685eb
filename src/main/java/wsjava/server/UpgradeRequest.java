package wsjava.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import wsjava.protocol.HttpRequest;

/** An upgrade request as an {@link UpgradeHandler} sees it: path, query, headers, cookies, offered subprotocols. */
public final class UpgradeRequest {

    private final HttpRequest request;
    private final String remoteAddress;

    UpgradeRequest(HttpRequest request, String remoteAddress) {
        this.request = request;
        this.remoteAddress = remoteAddress;
    }

    public String path() {
        return request.path();
    }

    public String query() {
        return request.query();
    }

    /** A query parameter, percent-decoded by RFC 3986, or null. */
    public String queryParameter(String name) {
        return request.queryParameter(name);
    }

    /** A header (case-insensitive name; repeated ones joined with ", "), or null. */
    public String header(String name) {
        return request.header(name);
    }

    public Map<String, String> headers() {
        return request.headers();
    }

    /** A cookie's value from the {@code Cookie} header (RFC 6265 section 5.4), or null. */
    public String cookie(String name) {
        for (String header : request.headerValues("Cookie")) {
            for (String pair : header.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).trim().equals(name)) {
                    return pair.substring(eq + 1).trim();
                }
            }
        }
        return null;
    }

    /** The subprotocols the client offered, in its order. */
    public List<String> offeredSubprotocols() {
        List<String> offered = new ArrayList<>();
        for (String value : request.headerValues("Sec-WebSocket-Protocol")) {
            for (String part : value.split(",")) {
                if (!part.trim().isEmpty()) {
                    offered.add(part.trim());
                }
            }
        }
        return Collections.unmodifiableList(offered);
    }

    /** The client's address as "ip:port". */
    public String remoteAddress() {
        return remoteAddress;
    }
}
