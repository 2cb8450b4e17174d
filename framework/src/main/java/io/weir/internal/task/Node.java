package io.weir.internal.task;

import io.weir.processor.Record;
import java.util.Map;

/**
 * A node of a task's instantiated topology. Records move between nodes by direct calls, so a
 * record is fully processed (down to the sinks) before the next one starts.
 */
public abstract class Node {

    final String name;
    /** Where a failure is noted with the node it happened in; set by the task's factory. */
    TaskContext failures;

    Node[] children = new Node[0];
    Map<String, Node> childrenByName = Map.of();

    Node(String name) {
        this.name = name;
    }

    abstract void process(Record<Object, Object> record);

    void init() {}

    void close() {}

    /** Called at step 1 of every commit, parents before children. */
    void beforeCommit() {}

    /** True if {@link #onWatermark} does anything: the task calls only such nodes. */
    boolean observesEventTime() {
        return false;
    }

    /** Called when the task's watermark advanced, parents before children. */
    void onWatermark(long watermark) {}

    /** Called when the task's work is committed (step 5). */
    void committed() {}

    /** Called when the task's uncommitted work was aborted. */
    void afterAbort() {}

    final void forwardToChildren(Record<Object, Object> record) {
        for (Node child : children) {
            child.receive(record);
        }
    }

    /**
     * Processes {@code record}, noting this node as where a failure happened: the innermost node
     * notes it first, so the error handler is told the node that threw, not the source.
     */
    final void receive(Record<Object, Object> record) {
        try {
            process(record);
        } catch (RuntimeException e) {
            if (failures != null) {
                failures.noteFailure(name, record, e);
            }
            throw e;
        }
    }
}
