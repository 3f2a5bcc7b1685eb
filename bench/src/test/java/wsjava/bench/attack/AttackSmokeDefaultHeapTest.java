package wsjava.bench.attack;

/**
 * Every attack at smoke size against a server under the JVM's default heap (a quarter of the
 * memory), on the FFM transport where there is a JDK 22 or later (as {@code ./wsjava serve} runs):
 * with the small-heap run on NIO, every attack meets both transports without a third run.
 */
class AttackSmokeDefaultHeapTest extends AttackSmoke {

    @Override
    String heap() {
        return "default";
    }

    @Override
    String transport() {
        return wsjava.bench.NewerJdkPeer.newestFrom(22) != null ? "ffm" : "nio";
    }
}
