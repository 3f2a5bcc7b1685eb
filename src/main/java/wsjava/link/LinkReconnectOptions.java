package wsjava.link;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import wsjava.client.ReconnectPolicy;
import wsjava.options.ServerOptions;

/**
 * The {@code reconnect...} and {@code open-text} options of {@code WSJavaConnect} (see
 * {@link LinkClient}), collected first and made into a {@link ReconnectPolicy} once all are read,
 * so their order does not matter.
 */
final class LinkReconnectOptions {

    private boolean enabled;
    private Long initialDelay;
    private Long maxDelay;
    private Integer attempts;
    private Set<Integer> codes;
    private final List<String> openTexts = new ArrayList<>();

    /** Takes the option if it is one of these; false for any other name. */
    boolean apply(String name, String value) {
        switch (name) {
            case "reconnect": enabled = ServerOptions.onOff(name, value); return true;
            case "reconnect-initial-delay": initialDelay = (long) ServerOptions.parseInt(name, value); return true;
            case "reconnect-max-delay": maxDelay = (long) ServerOptions.parseInt(name, value); return true;
            case "reconnect-attempts": attempts = ServerOptions.parseInt(name, value); return true;
            case "reconnect-codes": codes = codes(value); return true;
            case "open-text": openTexts.add(value); return true;
            default: return false;
        }
    }

    boolean enabled() {
        return enabled;
    }

    ReconnectPolicy policy() {
        ReconnectPolicy p = new ReconnectPolicy();
        if (initialDelay != null) {
            p.initialDelayMillis(initialDelay);
        }
        if (maxDelay != null) {
            p.maxDelayMillis(maxDelay);
        }
        if (attempts != null) {
            p.maxAttempts(attempts);
        }
        if (codes != null) {
            p.abnormalCodes(codes);
        }
        List<String> texts = List.copyOf(openTexts);
        return p.onEveryOpen(c -> texts.forEach(c::sendText));
    }

    private static Set<Integer> codes(String value) {
        Set<Integer> out = new TreeSet<>();
        for (String code : value.split(",")) {
            if (!code.isBlank()) {
                out.add(ServerOptions.parseInt("reconnect-codes", code.trim()));
            }
        }
        return out;
    }
}
