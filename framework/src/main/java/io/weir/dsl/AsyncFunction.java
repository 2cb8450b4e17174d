package io.weir.dsl;

import io.weir.processor.AsyncCall;
import java.util.concurrent.CompletionStage;

/**
 * The call an asynchronous step makes for each record: starts the work (a request to another
 * service) and returns at once with its future result. Called on the stream thread, one record
 * at a time; must not block. A {@code null} stage, or one completed exceptionally, fails the
 * attempt (see {@link Async.Retry}); so does an exception thrown by the function itself.
 *
 * @param <K> the record's key type
 * @param <V> the record's value type
 * @param <R> the result type
 */
@FunctionalInterface
public interface AsyncFunction<K, V, R> {

    CompletionStage<R> apply(K key, V value, AsyncCall call);
}
