package wsjava.link;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Round 3: a WL server's event queue, inbound budget, overdraft and the strings made from assembled
 * messages could add up to more than the heap on their own. By default they sum to at most five
 * eighths of it now, whatever the heap (as long as the 1 MiB smallest message limit is an eighth
 * of the inbound budget or less).
 */
@Timeout(10)
class LinkBudgetsTest {

    @Test
    void aWlServersBudgetsSumToFiveEighthsOfTheHeapAtMost() {
        long heap = Runtime.getRuntime().maxMemory();
        long sum = LinkServer.heapAtMost(LinkServer.defaults(), EventQueue.defaultLimit());
        System.out.println("WL server budgets by default: " + sum + " bytes of a " + heap + "-byte heap (" + (100 * sum / heap) + "%)");
        assertTrue(sum <= heap / 8 * 5 + (1 << 20), sum + " bytes of budgets in a heap of " + heap);
    }
}
