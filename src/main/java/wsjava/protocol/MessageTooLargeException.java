package wsjava.protocol;

/** A frame or message above the configured limit: close code 1009. */
public class MessageTooLargeException extends CloseException {

    private static final long serialVersionUID = 1L;

    public MessageTooLargeException(String reason) {
        super(CloseCodes.MESSAGE_TOO_BIG, reason);
    }
}
