package wsjava.server;

/**
 * Decides each upgrade after the Origin and token checks: authenticate (a cookie, a header, the
 * path), route to a listener per path, choose the subprotocol, add response headers. Runs on the
 * I/O thread, so it must not block; if it throws, the client gets 500 and the server logs it.
 */
@FunctionalInterface
public interface UpgradeHandler {

    UpgradeDecision decide(UpgradeRequest request);
}
