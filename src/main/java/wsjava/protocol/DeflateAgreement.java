package wsjava.protocol;

import java.util.List;
import java.util.Map;

/**
 * permessage-deflate as agreed for one connection (RFC 7692), and how it is agreed: {@link #negotiate}
 * takes the first offer this server can honour. {@code java.util.zip} always compresses with a
 * 32 KiB window, so an offer that asks us to use a smaller one ({@code server_max_window_bits}
 * below 15) is declined rather than accepted and broken. Our inflater reads any window, so
 * {@code client_max_window_bits} needs no answer.
 */
public final class DeflateAgreement {

    public static final String NAME = "permessage-deflate";

    /** The reserved bits it uses, as {@link FrameHeader#rsv()} numbers them: RSV1 marks a compressed message. */
    public static final int RSV = 4;

    private final boolean serverNoContextTakeover;
    private final boolean clientNoContextTakeover;
    private final String responseHeader;

    private DeflateAgreement(boolean serverNoContextTakeover, boolean clientNoContextTakeover, boolean echoServerWindow) {
        this.serverNoContextTakeover = serverNoContextTakeover;
        this.clientNoContextTakeover = clientNoContextTakeover;
        this.responseHeader = NAME
                + (serverNoContextTakeover ? "; server_no_context_takeover" : "")
                + (clientNoContextTakeover ? "; client_no_context_takeover" : "")
                + (echoServerWindow ? "; server_max_window_bits=15" : "");
    }

    /**
     * The frame size limit to parse with once deflate is agreed. Incompressible data grows a little
     * when deflated (a client's zlib at a low memLevel adds about 0.25%), so a message at the limit
     * may arrive in a compressed frame slightly over it. Compressed bytes are streamed through the
     * inflater, never buffered, and the message limit still applies to what they inflate to.
     */
    public static int frameLimit(int maxFramePayload) {
        return (int) Math.min(Integer.MAX_VALUE - 64L, maxFramePayload + maxFramePayload / 64L + 1024);
    }

    /** We start every message we send with a fresh compression context. */
    public boolean serverNoContextTakeover() {
        return serverNoContextTakeover;
    }

    /** The client starts every message with a fresh context, so our inflater need not keep one. */
    public boolean clientNoContextTakeover() {
        return clientNoContextTakeover;
    }

    /** The value of {@code Sec-WebSocket-Extensions} in our 101 response. */
    public String responseHeader() {
        return responseHeader;
    }

    /**
     * The agreement for the first acceptable permessage-deflate offer, or null when there is none.
     * With {@code allowContextTakeover} false we ask for no context takeover both ways, so zlib
     * state lives only while a message is being compressed or inflated.
     */
    public static DeflateAgreement negotiate(List<ExtensionOffer> offers, boolean allowContextTakeover) {
        for (ExtensionOffer offer : offers) {
            if (offer.name().equalsIgnoreCase(NAME) && !offer.repeatsParameter()) {
                DeflateAgreement agreed = tryOffer(offer.parameters(), allowContextTakeover);
                if (agreed != null) {
                    return agreed;
                }
            }
        }
        return null;
    }

    /** The agreement a client reads from a server's response (its parameters already checked). */
    public static DeflateAgreement fromResponse(Map<String, String> parameters) {
        java.util.Set<String> names = new java.util.HashSet<>();
        parameters.keySet().forEach(n -> names.add(n.toLowerCase(java.util.Locale.ROOT)));
        return new DeflateAgreement(names.contains("server_no_context_takeover"), names.contains("client_no_context_takeover"),
                names.contains("server_max_window_bits"));
    }

    /** RFC 7692 section 7.1: an unknown parameter or a bad value declines the offer. */
    private static DeflateAgreement tryOffer(Map<String, String> parameters, boolean allowContextTakeover) {
        boolean serverNoTakeover = !allowContextTakeover;
        boolean clientNoTakeover = !allowContextTakeover;
        boolean serverWindowOffered = false;
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            String value = p.getValue();
            switch (p.getKey().toLowerCase(java.util.Locale.ROOT)) {
                case "server_no_context_takeover":
                    if (value != null) {
                        return null;
                    }
                    serverNoTakeover = true;
                    break;
                case "client_no_context_takeover":
                    if (value != null) {
                        return null;
                    }
                    clientNoTakeover = true;
                    break;
                case "server_max_window_bits":
                    if (windowBits(value) != 15) {     // a smaller window is one Deflater cannot keep to
                        return null;
                    }
                    serverWindowOffered = true;
                    break;
                case "client_max_window_bits":
                    if (value != null && windowBits(value) < 0) {
                        return null;
                    }
                    break;
                default:
                    return null;
            }
        }
        return new DeflateAgreement(serverNoTakeover, clientNoTakeover, serverWindowOffered);
    }

    /** 8 to 15 written without leading zeros (RFC 7692 section 7.1.2.1), else -1. */
    static int windowBits(String value) {
        if (value == null || !value.matches("[89]|1[0-5]")) {
            return -1;
        }
        return Integer.parseInt(value);
    }

    @Override
    public String toString() {
        return responseHeader;
    }
}
