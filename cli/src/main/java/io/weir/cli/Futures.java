package io.weir.cli;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;

/** Waits for admin client results, turning failures into one-line {@link CommandFailedException}s. */
final class Futures {

    static final long TIMEOUT_S = 30;

    private Futures() {
    }

    static <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new CommandFailedException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new CommandFailedException("cannot " + what + ": no answer from the cluster within " + TIMEOUT_S
                    + " s (check --bootstrap-servers)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while trying to " + what, e);
        }
    }
}
