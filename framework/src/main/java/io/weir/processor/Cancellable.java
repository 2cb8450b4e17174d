package io.weir.processor;

/** A handle to stop a schedule. */
@FunctionalInterface
public interface Cancellable {

    void cancel();
}
