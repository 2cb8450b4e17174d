package io.weir.internal.supervision;

import io.weir.common.internal.Deadline;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What the liveness watch knows of the other instances from their heartbeats: when each was last
 * heard (on this instance's own clock, never the sender's), how long it said it would be away,
 * whether it left; and which of them have been silent for longer than the detection time.
 *
 * <p>Threads: the liveness thread only, except {@link #live()}, which any thread may read.
 */
final class Peers {

    /** One other instance: when it was last heard, and until when it is excused (it said it would be away). */
    static final class Peer {
        long seenNanos;
        Deadline excused;
        int threads;
        boolean left;
    }

    private final long detectionNanos;
    private final Duration retryInterval;
    private final Map<String, Peer> peers = new HashMap<>();
    private volatile int live;
    private long ownBeatSeenNanos = System.nanoTime();
    private Deadline nextRemoval = Deadline.after(Duration.ZERO);

    /**
     * @param detection     how long an instance may be silent before it is suspected
     * @param retryInterval how long after a failed removal the suspects may be tried again
     */
    Peers(Duration detection, Duration retryInterval) {
        this.detectionNanos = detection.toNanos();
        this.retryInterval = retryInterval;
    }

    /** This instance's own heartbeat came back: it is not cut off from Kafka. */
    void ownBeatSeen(long now) {
        ownBeatSeenNanos = now;
    }

    /**
     * Instance {@code from} sent a heartbeat of these words: {@code alive <threads> ...},
     * {@code away <millis> <threads>} or {@code left}.
     */
    void heard(String from, String[] words, long now) {
        Peer peer = peers.computeIfAbsent(from, k -> new Peer());
        peer.seenNanos = now;
        peer.left = words[0].equals("left");
        boolean away = words[0].equals("away");
        // Away for the time it announced, then silent for the detection time as anyone.
        peer.excused = away && words.length > 1
                ? Deadline.after(
                        Duration.ofMillis(Math.max(0, parse(words[1], 0))).plusNanos(detectionNanos))
                : null;
        String threads = away ? (words.length > 2 ? words[2] : "1") : (words.length > 1 ? words[1] : "1");
        peer.threads = (int) parse(threads, 1);
    }

    /**
     * Takes out the instances silent for longer than the detection time, to be removed; none while
     * this instance cannot see its own heartbeats (it cannot tell who is silent) or shortly after a
     * removal failed. Counts the live ones on the way.
     */
    Map<String, Peer> takeSilent(long now) {
        int alive = 0;
        Map<String, Peer> silent = new HashMap<>();
        for (Map.Entry<String, Peer> e : peers.entrySet()) {
            Peer p = e.getValue();
            if (p.left) {
                continue;
            }
            if (now - p.seenNanos <= detectionNanos || (p.excused != null && !p.excused.expired())) {
                alive++;
            } else {
                silent.put(e.getKey(), p);
            }
        }
        live = alive;
        if (silent.isEmpty() || now - ownBeatSeenNanos > detectionNanos) {
            return Map.of(); // nothing to do, or we cannot tell: our own heartbeats do not come back
        }
        if (!nextRemoval.expired()) {
            return Map.of(); // a removal failed just now: one attempt per heartbeat interval, not per poll
        }
        silent.keySet().forEach(peers::remove);
        return silent;
    }

    /**
     * Puts back a silent instance whose removal did not go through (the coordinator moving, an
     * admin timeout), so a later check tries again instead of leaving its tasks stalled until its
     * session times out. A heartbeat that arrived meanwhile wins: the instance is back.
     */
    void suspectAgain(String instance, Peer peer) {
        peers.putIfAbsent(instance, peer);
        nextRemoval = Deadline.after(retryInterval);
    }

    /** Other instances heard from within the detection time, at the last check. */
    int live() {
        return live;
    }

    private static long parse(String s, long fallback) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
