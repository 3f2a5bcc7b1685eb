package wsjava.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns frames into messages: joins fragments, enforces the continuation rules, lets control
 * frames through between fragments, validates text as UTF-8 while it arrives (so bad text fails at
 * the chunk that carries it), and enforces the message size limit as soon as a header reveals it.
 */
public final class MessageAssembler implements FrameListener {

    private final MessageHandler handler;
    private final int maxMessageSize;
    private final Utf8Validator utf8 = new Utf8Validator();

    private FrameHeader frame;
    /** Opcode of the data message in progress, or -1 between messages. */
    private int messageOpcode = -1;
    private byte[] message = new byte[0];
    private int messageSize;

    private final byte[] control = new byte[FrameParser.MAX_CONTROL_PAYLOAD];
    private int controlSize;

    public MessageAssembler(MessageHandler handler, int maxMessageSize) {
        this.handler = handler;
        this.maxMessageSize = maxMessageSize;
    }

    @Override
    public void onFrameStart(FrameHeader header) {
        frame = header;
        int opcode = header.opcode();
        if (OpCode.isControl(opcode)) {
            controlSize = 0;
            return;
        }
        if (opcode == OpCode.CONTINUATION) {
            if (messageOpcode < 0) {
                throw new ProtocolException("continuation frame with no message to continue");
            }
        } else if (messageOpcode >= 0) {
            throw new ProtocolException("new " + OpCode.name(opcode) + " message before the fragmented message finished");
        } else {
            messageOpcode = opcode;
            messageSize = 0;
        }
        long size = (long) messageSize + header.payloadLength();
        if (size > maxMessageSize) {
            throw new MessageTooLargeException("message of at least " + size + " bytes exceeds the limit of " + maxMessageSize);
        }
        reserve((int) size, header.fin());
    }

    /** Makes room for {@code size} bytes; exact when the message is complete in this frame. */
    private void reserve(int size, boolean exact) {
        if (size <= message.length) {
            return;
        }
        int capacity = exact ? size : (int) Math.min(maxMessageSize, Math.max(size, 2L * message.length));
        message = Arrays.copyOf(message, capacity);
    }

    @Override
    public void onFramePayload(byte[] buf, int off, int len) {
        if (OpCode.isControl(frame.opcode())) {
            System.arraycopy(buf, off, control, controlSize, len);
            controlSize += len;
            return;
        }
        if (messageOpcode == OpCode.TEXT) {
            utf8.feed(buf, off, len);
        }
        System.arraycopy(buf, off, message, messageSize, len);
        messageSize += len;
    }

    @Override
    public void onFrameEnd() {
        int opcode = frame.opcode();
        if (OpCode.isControl(opcode)) {
            deliverControl(opcode);
            return;
        }
        if (!frame.fin()) {
            return;
        }
        int type = messageOpcode;
        messageOpcode = -1;
        if (type == OpCode.TEXT) {
            utf8.finish();
            handler.onText(new String(message, 0, messageSize, StandardCharsets.UTF_8));
        } else if (message.length == messageSize) {
            byte[] whole = message;    // sized exactly: hand it over instead of copying
            message = new byte[0];
            handler.onBinary(whole);
        } else {
            handler.onBinary(Arrays.copyOf(message, messageSize));
        }
        if (message.length > 64 * 1024) {
            message = new byte[0];     // don't pin a big buffer to an idle connection
        }
    }

    private void deliverControl(int opcode) {
        byte[] payload = Arrays.copyOf(control, controlSize);
        if (opcode == OpCode.PING) {
            handler.onPing(payload);
        } else if (opcode == OpCode.PONG) {
            handler.onPong(payload);
        } else {
            CloseFrames.CloseReason reason = CloseFrames.parse(payload, payload.length);
            handler.onClose(reason.code(), reason.reason());
        }
    }
}
