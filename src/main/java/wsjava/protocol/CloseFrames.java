package wsjava.protocol;

import java.nio.charset.StandardCharsets;

/** The payload of a close frame (RFC 6455 section 5.5.1): a 2-byte code and a UTF-8 reason. */
public final class CloseFrames {

    /** 125 bytes of control payload minus the 2-byte code. */
    public static final int MAX_REASON_BYTES = 123;

    private CloseFrames() {
    }

    /** The payload for a close frame we send; a reason longer than 123 bytes is cut at a character boundary. */
    public static byte[] payload(int code, String reason) {
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(text.length, MAX_REASON_BYTES);
        while (len < text.length && len > 0 && (text[len] & 0xC0) == 0x80) {
            len--;     // don't split a multi-byte character
        }
        byte[] out = new byte[2 + len];
        out[0] = (byte) (code >>> 8);
        out[1] = (byte) code;
        System.arraycopy(text, 0, out, 2, len);
        return out;
    }

    /** Reads the payload of a received close frame; an empty one means {@link CloseCodes#NO_STATUS}. */
    public static CloseReason parse(byte[] payload, int len) {
        if (len == 0) {
            return new CloseReason(CloseCodes.NO_STATUS, "");
        }
        if (len == 1) {
            throw new ProtocolException("close frame payload of 1 byte: a code needs 2");
        }
        int code = (payload[0] & 0xFF) << 8 | (payload[1] & 0xFF);
        if (!CloseCodes.isValidOnWire(code)) {
            throw new ProtocolException("invalid close code " + code);
        }
        if (!Utf8Validator.isValid(payload, 2, len - 2)) {
            throw new BadPayloadException("close reason is not valid UTF-8");
        }
        return new CloseReason(code, new String(payload, 2, len - 2, StandardCharsets.UTF_8));
    }

    /** A close code with its reason text. */
    public static final class CloseReason {
        private final int code;
        private final String reason;

        public CloseReason(int code, String reason) {
            this.code = code;
            this.reason = reason;
        }

        public int code() {
            return code;
        }

        public String reason() {
            return reason;
        }
    }
}
