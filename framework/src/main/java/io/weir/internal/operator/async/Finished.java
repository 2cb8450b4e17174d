package io.weir.internal.operator.async;

/**
 * What a call's stage (or its back-off timer) reports, from any thread, to the step's queue: the
 * attempt ended with a value or an error, or the wait before a retry is over.
 *
 * @param attempt which attempt of the call this is about: a report about an earlier one is stale
 */
record Finished(Call<?, ?> call, int attempt, Object value, Throwable error, boolean retryDue) {

    static Finished retry(Call<?, ?> call) {
        return new Finished(call, call.attempt, null, null, true);
    }
}
