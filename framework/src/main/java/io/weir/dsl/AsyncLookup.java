package io.weir.dsl;

import io.weir.processor.AsyncCall;
import java.util.concurrent.CompletionStage;

/**
 * The lookup of {@link RecordStream#enrichAsync}: asks another service for the value of {@code
 * key} and returns at once with its future answer. Called on the stream thread; must not block.
 * Completing with {@code null} means the service has no value for the key (the joiner gets
 * {@code null}); failing fails the attempt (see {@link Async.Retry}).
 *
 * @param <LK> what is looked up
 * @param <T>  what the service answers
 */
@FunctionalInterface
public interface AsyncLookup<LK, T> {

    CompletionStage<T> lookup(LK key, AsyncCall call);
}
