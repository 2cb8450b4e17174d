package io.weir.internal.task;

import io.weir.internal.time.EventTimeProcessor;
import io.weir.processor.Cancellable;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Punctuator;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import java.time.Duration;

/** Runs one user or DSL processor, and is its {@link ProcessorContext}. */
final class ProcessorNode extends Node implements ProcessorContext<Object, Object>, InternalContext {

    private final Processor<Object, Object, Object, Object> processor;
    private final TaskContext task;
    private final java.util.Map<String, Object> stores;
    /** {@code tracing.step.spans} with tracing on: read once, so the hot path tests one field. */
    private final boolean stepSpans;

    ProcessorNode(
            String name,
            Processor<Object, Object, Object, Object> processor,
            TaskContext task,
            java.util.Map<String, Object> stores) {
        super(name);
        this.processor = processor;
        this.task = task;
        this.stores = stores;
        this.stepSpans = task.tracing().on() && task.tracing().stepSpans();
    }

    @Override
    void committed() {
        if (processor instanceof CommitAwareProcessor c) {
            c.committed();
        }
    }

    /** Step 1 of the commit: processors that hold back updates (tables) forward them now. */
    @Override
    void beforeCommit() {
        if (processor instanceof CommitAwareProcessor c) {
            c.beforeCommit();
        }
    }

    @Override
    void init() {
        processor.init(this);
    }

    @Override
    void afterAbort() {
        if (processor instanceof CommitAwareProcessor c) {
            c.afterAbort();
        }
    }

    @Override
    boolean observesEventTime() {
        return processor instanceof EventTimeProcessor;
    }

    @Override
    void onWatermark(long watermark) {
        if (processor instanceof EventTimeProcessor e) {
            e.onWatermark(watermark);
        }
    }

    @Override
    public boolean behind() {
        return task.behind();
    }

    @Override
    public java.util.List<String> childNames() {
        return java.util.Arrays.stream(children).map(c -> c.name).toList();
    }

    @Override
    public boolean traced() {
        return task.tracing().on();
    }

    @Override
    public io.weir.processor.Headers withTraceContext(io.weir.processor.Headers onto, io.weir.processor.Headers from) {
        return task.tracing().on() ? task.tracing().copyContext(from, onto) : onto;
    }

    @Override
    public AsyncHost asyncHost() {
        return task;
    }

    /** The processor, if it is an asynchronous step: its task drives it. */
    AsyncStep asyncStep() {
        return processor instanceof AsyncStep a ? a : null;
    }

    @Override
    void process(Record<Object, Object> record) {
        if (!stepSpans) {
            processor.process(record);
            return;
        }
        io.weir.internal.tracing.RecordSpan step = task.tracing().step(name);
        try {
            processor.process(record);
        } catch (RuntimeException e) {
            if (step != null) {
                step.failed(e);
            }
            throw e;
        } finally {
            if (step != null) {
                step.end();
            }
        }
    }

    @Override
    void close() {
        processor.close();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forward(Record<?, ?> record) {
        forwardToChildren((Record<Object, Object>) record);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forward(Record<?, ?> record, String childName) {
        Node child = childrenByName.get(childName);
        if (child == null) {
            throw new IllegalArgumentException(
                    "'" + name + "' has no child named '" + childName + "'; children: " + childrenByName.keySet());
        }
        child.receive((Record<Object, Object>) record);
    }

    @Override
    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator punctuator) {
        return task.punctuations().schedule(interval, java.util.Objects.requireNonNull(type, "type"), punctuator);
    }

    @Override
    public Cancellable scheduleAt(long time, PunctuationType type, Punctuator punctuator) {
        return task.punctuations().at(time, java.util.Objects.requireNonNull(type, "type"), punctuator);
    }

    @Override
    public long currentWatermark() {
        return task.watermarks().current();
    }

    @Override
    public void reportLate(String operator, long windowStart, long windowEnd) {
        task.late(operator, windowStart, windowEnd);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S> S getStateStore(String storeName) {
        Object store = stores.get(storeName);
        if (store == null) {
            throw new IllegalArgumentException("processor '" + name + "' is not connected to a store named '"
                    + storeName + "'; its stores: " + stores.keySet());
        }
        return (S) store;
    }

    @Override
    public TaskId taskId() {
        return task.id();
    }

    @Override
    public String applicationId() {
        return task.applicationId();
    }

    @Override
    public long currentWallClockTime() {
        return task.wallClockMs();
    }
}
