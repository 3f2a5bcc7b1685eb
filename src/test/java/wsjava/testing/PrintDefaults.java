package wsjava.testing;

import wsjava.server.ServerConfig;

/** Prints the server's default inbound budget and this JVM's maximum heap, for tests run under small heaps. */
public final class PrintDefaults {

    private PrintDefaults() {
    }

    public static void main(String[] args) {
        System.out.println(new ServerConfig().inboundBudgetBytes() + " " + Runtime.getRuntime().maxMemory());
    }
}
