package wsjava.link;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import wsjava.client.ReconnectPolicy;

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
            case "reconnect": enabled = onOff(name, value); return true;
            case "reconnect-initial-delay": initialDelay = number(name, value); return true;
            case "reconnect-max-delay": maxDelay = number(name, value); return true;
            case "reconnect-attempts": attempts = (int) number(name, value); return true;
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
                out.add((int) number("reconnect-codes", code.trim()));
            }
        }
        return out;
    }

    private static long number(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, got " + value);
        }
    }

    private static boolean onOff(String name, String value) {
        if ("on".equals(value) || "true".equals(value)) {
            return true;
        }
        if ("off".equals(value) || "false".equals(value)) {
            return false;
        }
        throw new IllegalArgumentException(name + " needs on or off, got " + value);
    }
}
