package wsjava.bench.attack;

/** Every attack at smoke size against a server under the JVM's default heap (a quarter of the memory). */
class AttackSmokeDefaultHeapTest extends AttackSmoke {

    @Override
    String heap() {
        return "default";
    }
}
