package io.weir.internal.time;

import io.weir.processor.Cancellable;
import io.weir.processor.PunctuationType;
import io.weir.processor.Punctuator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The schedules and timers of one task, on both clocks. Fired by the task's thread between
 * records: wall-clock ones by the thread's loop, event-time ones when the task's watermark
 * advances (see {@link Watermarks}).
 *
 * <ul>
 *   <li>A periodic schedule that fell behind fires once and then keeps its cadence from now,
 *       rather than bursting. Event-time schedules fire at multiples of their interval (epoch
 *       aligned), with the latest multiple the watermark passed.</li>
 *   <li>A one-shot timer fires once, in time order among the timers of its clock.</li>
 *   <li>Under exactly-once, what fired since the last commit is part of the open transaction: if
 *       it aborts, the timers that fired are armed again and event-time schedules go back to
 *       where they were, so the replay fires them again and their outputs are not lost; timers
 *       and schedules registered since the last commit are disarmed, since the replay registers
 *       them again (those registered in {@code init} stay).</li>
 * </ul>
 *
 * <p>Timers live in memory: a restarted task starts without them. A processor that needs a
 * timer across restarts keeps its deadline in a store and registers it again in {@code init},
 * as the DSL's windows do with their watermark.
 */
public final class Punctuations {

    private abstract static class Entry implements Cancellable {
        final PunctuationType type;
        final Punctuator punctuator;
        long next;
        long committedNext;
        boolean cancelled;

        Entry(PunctuationType type, Punctuator punctuator, long next) {
            this.type = type;
            this.punctuator = punctuator;
            this.next = next;
            this.committedNext = next;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static final class Periodic extends Entry {
        final long intervalMs;

        Periodic(PunctuationType type, Punctuator punctuator, long next, long intervalMs) {
            super(type, punctuator, next);
            this.intervalMs = intervalMs;
        }
    }

    private static final class OneShot extends Entry {
        OneShot(PunctuationType type, Punctuator punctuator, long at) {
            super(type, punctuator, at);
        }
    }

    private final List<Periodic> periodic = new ArrayList<>();
    private final PriorityQueue<OneShot> wallTimers = new PriorityQueue<>((a, b) -> Long.compare(a.next, b.next));
    private final PriorityQueue<OneShot> eventTimers = new PriorityQueue<>((a, b) -> Long.compare(a.next, b.next));
    /** One-shot timers fired since the last commit: armed again if the transaction aborts. */
    private final List<OneShot> firedSinceCommit = new ArrayList<>();
    /**
     * Timers and schedules registered since the last commit (by processing the records a replay
     * processes again): disarmed if the transaction aborts, or the replay would arm them twice.
     */
    private final List<Entry> armedSinceCommit = new ArrayList<>();

    private final java.util.function.LongSupplier wallClock;
    private final java.util.function.LongSupplier watermark;

    public Punctuations(java.util.function.LongSupplier wallClock, java.util.function.LongSupplier watermark) {
        this.wallClock = wallClock;
        this.watermark = watermark;
    }

    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator punctuator) {
        long ms = interval.toMillis();
        if (ms < 1) {
            throw new IllegalArgumentException("a punctuation interval must be at least 1 ms, was " + interval);
        }
        long first = type == PunctuationType.WALL_CLOCK
                ? wallClock.getAsLong() + ms
                : nextMultiple(watermark.getAsLong(), ms);
        Periodic p = new Periodic(type, punctuator, first, ms);
        periodic.add(p);
        armedSinceCommit.add(p);
        return p;
    }

    public Cancellable at(long time, PunctuationType type, Punctuator punctuator) {
        OneShot t = new OneShot(type, punctuator, time);
        (type == PunctuationType.WALL_CLOCK ? wallTimers : eventTimers).add(t);
        armedSinceCommit.add(t);
        return t;
    }

    /** Fires what is due on the wall clock at {@code now}; returns how many fired. */
    public int fireWallClock(long now) {
        return fire(PunctuationType.WALL_CLOCK, wallTimers, now);
    }

    /** Fires what the watermark {@code watermark} has passed; returns how many fired. */
    public int fireEventTime(long watermark) {
        return fire(PunctuationType.EVENT_TIME, eventTimers, watermark);
    }

    private int fire(PunctuationType type, PriorityQueue<OneShot> timers, long now) {
        int fired = 0;
        while (!timers.isEmpty() && timers.peek().next <= now) {
            OneShot t = timers.poll();
            if (!t.cancelled) {
                firedSinceCommit.add(t);
                t.punctuator.punctuate(t.next);
                fired++;
            }
        }
        if (periodic.isEmpty()) {
            return fired;
        }
        boolean due = false;
        for (Periodic p : periodic) {
            due |= p.type == type && !p.cancelled && now >= p.next;
        }
        if (!due) {
            return fired; // the common case on every record: no allocation
        }
        periodic.removeIf(p -> p.cancelled);
        for (Periodic p : List.copyOf(periodic)) {
            if (p.type != type || p.cancelled || now < p.next) {
                continue;
            }
            if (type == PunctuationType.WALL_CLOCK) {
                p.punctuator.punctuate(now);
                long next = p.next + p.intervalMs;
                p.next = next > now ? next : now + p.intervalMs;
            } else {
                long passed = now - Math.floorMod(now, p.intervalMs);
                p.punctuator.punctuate(passed);
                // Saturated: a bounded run ends with the watermark at Long.MAX_VALUE.
                p.next = passed > Long.MAX_VALUE - p.intervalMs ? Long.MAX_VALUE : passed + p.intervalMs;
            }
            fired++;
        }
        return fired;
    }

    /**
     * The transaction committed (or the task's processors were just initialized: what they
     * registered in {@code init} stays, whatever happens to the first transaction).
     */
    public void committed() {
        firedSinceCommit.clear();
        armedSinceCommit.clear();
        for (Periodic p : periodic) {
            p.committedNext = p.next;
        }
    }

    public void aborted() {
        for (OneShot t : firedSinceCommit) {
            (t.type == PunctuationType.WALL_CLOCK ? wallTimers : eventTimers).add(t);
        }
        firedSinceCommit.clear();
        for (Entry e : armedSinceCommit) {
            e.cancel(); // removed lazily: periodic ones by the next firing, timers when they come due
        }
        armedSinceCommit.clear();
        for (Periodic p : periodic) {
            if (p.type == PunctuationType.EVENT_TIME) {
                p.next = p.committedNext;
            }
        }
    }

    /** The first multiple of {@code interval} after {@code time}. */
    private static long nextMultiple(long time, long interval) {
        if (time == Long.MIN_VALUE) {
            return Long.MIN_VALUE + interval;
        }
        return time - Math.floorMod(time, interval) + interval;
    }
}
