package io.weir.state.changelog;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.errors.InterruptException;

/**
 * Applies restore batches to a store on a second thread, so that writing one poll's records
 * overlaps with fetching and deserializing the next (each takes about as long as the other; done in
 * turn, a restore takes their sum). At most one batch is in flight and batches are applied in
 * order, so the store's offset only moves forward; two batches are reused in turn, so memory stays
 * at two polls' worth. The thread starts with the first {@link #submit} and ends with
 * {@link #close()}.
 *
 * <p>Threads: used by the restoring thread only; the store is written by the applier thread
 * between {@code submit} and the next {@code submit}, {@link #drain()} or {@code close()}, and by
 * no one else in that time.
 */
final class BatchApplier implements AutoCloseable {

    private final BytesStore store;
    private ExecutorService thread;
    private Future<?> inFlight;
    private Runnable afterInFlight;
    private WriteBatch spare = new WriteBatch(1024);

    BatchApplier(BytesStore store) {
        this.store = store;
    }

    /**
     * Starts applying {@code batch} with {@code offset} once the previous batch is applied (and its
     * {@code afterApply} has run, on this thread); {@code ingest}: as a bulk load
     * ({@link BytesStore#ingest}). Returns an empty batch to fill next; do not touch {@code batch} again.
     */
    WriteBatch submit(WriteBatch batch, long offset, boolean ingest, Runnable afterApply) {
        drain();
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "weir-restore-" + store.name());
                t.setDaemon(true);
                return t;
            });
        }
        inFlight = thread.submit(() -> {
            if (ingest) {
                store.ingest(batch, offset);
            } else {
                store.apply(batch, offset);
            }
        });
        afterInFlight = afterApply;
        WriteBatch next = spare;
        spare = batch;
        return next;
    }

    /** Waits until the batch in flight, if any, is applied; rethrows what applying it threw. */
    void drain() {
        if (inFlight == null) {
            return;
        }
        Future<?> f = inFlight;
        inFlight = null;
        try {
            f.get();
        } catch (InterruptedException e) {
            awaitQuietly(f); // the store must not be written after we return
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(cause);
        }
        spare.clear();
        afterInFlight.run();
    }

    /** Waits for the batch in flight (its errors are the caller's, if it asks via {@link #drain()}), ends the thread. */
    @Override
    public void close() {
        if (inFlight != null) {
            awaitQuietly(inFlight);
            inFlight = null;
        }
        if (thread != null) {
            thread.shutdown();
        }
    }

    private static void awaitQuietly(Future<?> f) {
        boolean interrupted = false;
        while (true) {
            try {
                f.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break; // reported by drain() when the restore is still going; otherwise superseded
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
