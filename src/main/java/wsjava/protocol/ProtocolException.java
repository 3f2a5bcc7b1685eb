package wsjava.protocol;

/** A frame or sequence of frames that breaks RFC 6455: close code 1002. */
public class ProtocolException extends CloseException {

    private static final long serialVersionUID = 1L;

    public ProtocolException(String reason) {
        super(CloseCodes.PROTOCOL_ERROR, reason);
    }
}
