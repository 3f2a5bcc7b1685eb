package wsjava.protocol;

/** Text (or a close reason) that is not valid UTF-8: close code 1007. */
public class BadPayloadException extends CloseException {

    private static final long serialVersionUID = 1L;

    public BadPayloadException(String reason) {
        super(CloseCodes.INVALID_PAYLOAD, reason);
    }
}
