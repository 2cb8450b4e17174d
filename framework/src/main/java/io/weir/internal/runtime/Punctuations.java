package io.weir.internal.runtime;

import io.weir.processor.Cancellable;
import io.weir.processor.Punctuator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The wall-clock schedules of one task. Fired by the task's thread between records; a schedule
 * that fell behind fires once and then keeps its cadence from now, rather than bursting.
 */
final class Punctuations {

    private static final class Schedule implements Cancellable {
        final long intervalMs;
        final Punctuator punctuator;
        long next;
        boolean cancelled;

        Schedule(long intervalMs, Punctuator punctuator, long next) {
            this.intervalMs = intervalMs;
            this.punctuator = punctuator;
            this.next = next;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private final List<Schedule> schedules = new ArrayList<>();

    Cancellable schedule(Duration interval, Punctuator punctuator) {
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("a punctuation interval must be at least 1 ms, was " + interval);
        }
        Schedule s = new Schedule(interval.toMillis(), punctuator, System.currentTimeMillis() + interval.toMillis());
        schedules.add(s);
        return s;
    }

    /** Fires every due schedule; returns how many fired. */
    int fireDue(long now) {
        if (schedules.isEmpty()) {
            return 0;
        }
        int fired = 0;
        schedules.removeIf(s -> s.cancelled);
        for (Schedule s : List.copyOf(schedules)) {
            if (!s.cancelled && now >= s.next) {
                s.punctuator.punctuate(now);
                long next = s.next + s.intervalMs;
                s.next = next > now ? next : now + s.intervalMs;
                fired++;
            }
        }
        return fired;
    }
}
