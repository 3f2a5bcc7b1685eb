package wsjava.protocol;

/** Whole messages, as {@link MessageAssembler} completes them. */
public interface MessageHandler {

    void onText(String text);

    void onBinary(byte[] data);

    void onPing(byte[] payload);

    void onPong(byte[] payload);

    /** The peer's close frame; {@code code} is {@link CloseCodes#NO_STATUS} when it carried none. */
    void onClose(int code, String reason);
}
