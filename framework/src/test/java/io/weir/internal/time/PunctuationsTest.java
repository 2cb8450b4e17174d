package io.weir.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.processor.PunctuationType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PunctuationsTest {

    private final AtomicLong wall = new AtomicLong(10_000);
    private final AtomicLong watermark = new AtomicLong(Long.MIN_VALUE);
    private final Punctuations punctuations = new Punctuations(wall::get, watermark::get);
    private final List<String> fired = new ArrayList<>();

    @Test
    void eventTimeSchedulesFireAtAlignedMultiplesOnceEvenWhenTheWatermarkJumps() {
        punctuations.schedule(Duration.ofMillis(100), PunctuationType.EVENT_TIME, t -> fired.add("p" + t));
        punctuations.fireEventTime(99);
        assertThat(fired).as("0 is the first multiple the watermark passed").containsExactly("p0");
        punctuations.fireEventTime(100);
        punctuations.fireEventTime(150);
        punctuations.fireEventTime(530);
        assertThat(fired).containsExactly("p0", "p100", "p500");
        assertThat(punctuations.fireWallClock(Long.MAX_VALUE))
                .as("the wall clock does not fire it")
                .isZero();
    }

    @Test
    void oneShotTimersFireOnceInTimeOrderOnTheirOwnClock() {
        punctuations.at(300, PunctuationType.EVENT_TIME, t -> fired.add("e" + t));
        punctuations.at(200, PunctuationType.EVENT_TIME, t -> fired.add("e" + t));
        punctuations.at(10_050, PunctuationType.WALL_CLOCK, t -> fired.add("w" + t));
        punctuations.fireEventTime(250);
        punctuations.fireWallClock(10_049);
        punctuations.fireEventTime(1_000);
        punctuations.fireWallClock(10_050);
        punctuations.fireEventTime(2_000);
        assertThat(fired).containsExactly("e200", "e300", "w10050");
    }

    @Test
    void anAbortArmsAgainWhatFiredSinceTheLastCommit() {
        punctuations.at(100, PunctuationType.EVENT_TIME, t -> fired.add("once" + t));
        punctuations.schedule(Duration.ofMillis(100), PunctuationType.EVENT_TIME, t -> fired.add("p" + t));
        punctuations.fireEventTime(100);
        punctuations.committed();
        punctuations.at(250, PunctuationType.EVENT_TIME, t -> fired.add("once" + t));
        punctuations.fireEventTime(300);
        punctuations.aborted();
        punctuations.at(250, PunctuationType.EVENT_TIME, t -> fired.add("once" + t)); // the replay arms it again
        punctuations.fireEventTime(300);
        assertThat(fired).containsExactly("once100", "p100", "once250", "p300", "once250", "p300");
    }

    @Test
    void timersArmedInAnAbortedTransactionAreDisarmedSoTheReplayArmsThemOnce() {
        punctuations.committed();
        // The aborted transaction's processing armed a timer and a schedule (and one timer fired).
        punctuations.at(200, PunctuationType.EVENT_TIME, t -> fired.add("aborted-timer"));
        punctuations.schedule(Duration.ofMillis(100), PunctuationType.EVENT_TIME, t -> fired.add("aborted-schedule"));
        punctuations.at(50, PunctuationType.EVENT_TIME, t -> fired.add("fired-then-aborted"));
        punctuations.fireEventTime(60);
        punctuations.aborted();
        fired.clear();
        // The replay processes the same records, which arm the same timers again.
        punctuations.at(200, PunctuationType.EVENT_TIME, t -> fired.add("timer"));
        punctuations.at(50, PunctuationType.EVENT_TIME, t -> fired.add("early-timer"));
        punctuations.fireEventTime(300);
        assertThat(fired).containsExactly("early-timer", "timer");
    }

    @Test
    void cancelledTimersDoNotFire() {
        var c = punctuations.at(5, PunctuationType.EVENT_TIME, t -> fired.add("x"));
        var s = punctuations.schedule(Duration.ofMillis(1), PunctuationType.WALL_CLOCK, t -> fired.add("y"));
        c.cancel();
        s.cancel();
        punctuations.fireEventTime(10);
        punctuations.fireWallClock(Long.MAX_VALUE / 2);
        assertThat(fired).isEmpty();
    }
}
