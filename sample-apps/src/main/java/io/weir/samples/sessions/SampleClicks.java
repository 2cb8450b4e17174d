package io.weir.samples.sessions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The worked example's three visitors A, B and C, whose clicks come in bursts with coffee breaks between
 * them, as minutes:seconds after {@code base}; fed in the order of their times except one.
 *
 * <ul>
 *   <li><b>A</b> clicks from 0:00 to 3:20, takes a coffee break, clicks from 12:00 to 15:00, leaves,
 *       and comes back from 35:00 to 38:00: three sessions. But A also clicked at 8:00, on the way to
 *       the coffee machine, and that click reaches Kafka only after A's 38:00 click (the phone was
 *       offline): 8:00 is within 5 minutes of both 3:20 and 12:00, so it <em>bridges</em> A's first
 *       two sessions, whose results were already emitted, into one.</li>
 *   <li><b>B</b> clicks from 2:00 to 6:30 and, after a 15-minute break, from 21:30 to 25:15: two
 *       sessions.</li>
 *   <li><b>C</b> clicks from 5:00 to 18:00 with pauses of 4 and 4:30 minutes (quick coffees, within
 *       the gap), then from 30:00 to 31:00: two sessions.</li>
 *   <li>At 90:00 each visitor comes back for one click: it moves every partition's watermark past
 *       all the sessions above, so they are all emitted; the sessions of these last clicks stay
 *       open.</li>
 * </ul>
 */
final class SampleClicks {

    static final String BRIDGING_VISITOR = "A";
    static final Duration BRIDGE_AT = minutes(8, 0);
    static final Duration CLOSING_AT = minutes(90, 0);

    private final long base;
    private final List<Click> feedOrder = new ArrayList<>();
    private final Click bridge;

    SampleClicks(long base) {
        this.base = base;
        List<Click> inOrder = new ArrayList<>();
        add(inOrder, "A", "/home", 0, 0);
        add(inOrder, "A", "/search", 0, 30);
        add(inOrder, "A", "/product/42", 1, 10);
        add(inOrder, "A", "/product/7", 2, 0);
        add(inOrder, "A", "/cart", 3, 20);
        add(inOrder, "A", "/cart", 12, 0);
        add(inOrder, "A", "/checkout", 12, 40);
        add(inOrder, "A", "/payment", 13, 30);
        add(inOrder, "A", "/thanks", 15, 0);
        add(inOrder, "A", "/orders", 35, 0);
        add(inOrder, "A", "/orders/1", 36, 10);
        add(inOrder, "A", "/help", 38, 0);
        add(inOrder, "B", "/home", 2, 0);
        add(inOrder, "B", "/news", 2, 45);
        add(inOrder, "B", "/news/1", 4, 10);
        add(inOrder, "B", "/news/2", 6, 30);
        add(inOrder, "B", "/news/3", 21, 30);
        add(inOrder, "B", "/news/4", 22, 0);
        add(inOrder, "B", "/home", 25, 15);
        add(inOrder, "C", "/home", 5, 0);
        add(inOrder, "C", "/docs", 9, 0);
        add(inOrder, "C", "/docs/windows", 13, 30);
        add(inOrder, "C", "/docs/sessions", 14, 0);
        add(inOrder, "C", "/docs/triggers", 18, 0);
        add(inOrder, "C", "/blog", 30, 0);
        add(inOrder, "C", "/blog/1", 31, 0);
        inOrder.sort(Comparator.comparingLong(Click::clickedAt));
        this.bridge = new Click(BRIDGING_VISITOR, "/menu", base + BRIDGE_AT.toMillis());
        long bridgeArrives = base + minutes(40, 0).toMillis(); // after every click up to 40:00
        inOrder.stream().filter(c -> c.clickedAt() <= bridgeArrives).forEach(feedOrder::add);
        feedOrder.add(bridge);
        inOrder.stream().filter(c -> c.clickedAt() > bridgeArrives).forEach(feedOrder::add);
        for (String visitor : List.of("A", "B", "C")) {
            feedOrder.add(new Click(visitor, "/home", base + CLOSING_AT.toMillis()));
        }
    }

    private void add(List<Click> clicks, String visitor, String page, int minutes, int seconds) {
        clicks.add(new Click(visitor, page, base + minutes(minutes, seconds).toMillis()));
    }

    private static Duration minutes(int minutes, int seconds) {
        return Duration.ofMinutes(minutes).plusSeconds(seconds);
    }

    long base() {
        return base;
    }

    /** Every click in the order it is fed: by time, except the bridging click, which comes after 40:00. */
    List<Click> feedOrder() {
        return List.copyOf(feedOrder);
    }

    /** The click that arrives late and merges two of A's sessions. */
    Click bridge() {
        return bridge;
    }

    /** The clicks fed before the bridging click. */
    List<Click> beforeBridge() {
        return List.copyOf(feedOrder.subList(0, feedOrder.indexOf(bridge)));
    }

    /** The time of the last clicks, the largest of every partition that holds a visitor. */
    long closingTime() {
        return base + CLOSING_AT.toMillis();
    }
}
