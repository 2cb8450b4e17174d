package io.weir.internal.operator;

import io.weir.processor.Cancellable;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Punctuator;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import java.time.Duration;

/**
 * What the DSL processors' test harnesses share: a context of task 0_0 of application "app" at
 * wall-clock 0, where forwarding to a named child is forwarding, and timers are unexpected unless
 * a harness says otherwise. Each harness adds its forwarding, stores and watermark.
 */
public abstract class FakeContext<K, V> implements ProcessorContext<K, V> {

    @Override
    public void forward(Record<? extends K, ? extends V> record, String childName) {
        forward(record);
    }

    @Override
    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator punctuator) {
        throw new AssertionError("this processor was not expected to schedule anything");
    }

    @Override
    public Cancellable scheduleAt(long time, PunctuationType type, Punctuator punctuator) {
        throw new AssertionError("this processor was not expected to set timers");
    }

    @Override
    public long currentWatermark() {
        return Long.MIN_VALUE;
    }

    @Override
    public TaskId taskId() {
        return new TaskId(0, 0);
    }

    @Override
    public String applicationId() {
        return "app";
    }

    @Override
    public long currentWallClockTime() {
        return 0;
    }
}
