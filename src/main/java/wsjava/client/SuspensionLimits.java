package wsjava.client;

import java.util.function.BooleanSupplier;
import wsjava.protocol.InboundLimits;

/**
 * A client's only inbound limit: no new message starts while the application has suspended
 * reading, even in the middle of a read. A read of 64 KiB can hold many messages (compressed, up
 * to the inflation ratio times as much), so a check between reads let one read deliver several
 * times what the application had room for; now at most the message in progress completes.
 */
final class SuspensionLimits implements InboundLimits {

    private final BooleanSupplier suspended;

    SuspensionLimits(BooleanSupplier suspended) {
        this.suspended = suspended;
    }

    @Override public boolean mayGrow(long bytes) { return true; }
    @Override public boolean mayInflate(int bytes) { return true; }
    @Override public boolean frameDone() { return true; }
    @Override public boolean mayStartMessage() { return !suspended.getAsBoolean(); }
    @Override public boolean mayKeep(int bytes) { return true; }
}
