package io.weir.internal.operator.async;

import io.weir.dsl.Async;
import io.weir.internal.task.AsyncHost;
import io.weir.internal.task.AsyncMeters;
import io.weir.internal.task.AsyncStep;
import io.weir.internal.task.CommitAwareProcessor;
import io.weir.internal.task.ErrorDecisions;
import io.weir.internal.task.InstanceCalls;
import io.weir.internal.task.InternalContext;
import io.weir.internal.task.Stage;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueStore;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An asynchronous step (see {@link Async} for what it guarantees): calls its {@link StepLogic} for each
 * record on the stream thread, collects the finished calls from any thread in a queue, and when
 * its task applies them ({@link #complete()}) forwards their results in the order {@link
 * Async#order()} asks for, retries, or dead-letters them. Calls in flight at a commit go into the
 * store {@code <name>-in-flight} ({@link InFlightLog}); an abort, a restart or a new owner calls
 * again for what the store holds.
 *
 * <p>Threading: the task's stream thread, except the callbacks of the calls' stages, which only
 * add to the queue and raise the thread's signal.
 */
final class AsyncStepProcessor<K, V, R> implements Processor<K, V, Object, Object>, AsyncStep, CommitAwareProcessor {

    private final String name;
    private final String storeName;
    private final StepLogic<K, V, R> logic;
    private final Async options;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    private final ConcurrentLinkedQueue<Finished> finished = new ConcurrentLinkedQueue<>();
    private InFlightCalls<K, V> calls;
    private InFlightLog<K, V> log;
    private ProcessorContext<Object, Object> context;
    private AsyncHost host;
    private AsyncMeters.Step meters;
    private InstanceCalls.Counts instance;
    /**
     * Calls restored from the store (or next in their key's turn) that wait for the instance to
     * come under {@code maxInFlightPerInstance}: a task taking over another's calls after a crash
     * or a rebalance would otherwise start them all at once, tasks times the bound.
     */
    private final ArrayDeque<Call<K, V>> held = new ArrayDeque<>();

    private long nextSeq;
    /** The input record the last call came from, and how many calls it gave: idempotency keys. */
    private ConsumerRecord<byte[], byte[]> lastOrigin;

    private int fromLastOrigin;
    /** When a call last left the step, or calls began to be in flight (nanoTime). */
    private long progressNanos;
    /**
     * Calls whose result failed downstream under exactly-once, by idempotency key: the abort that
     * follows brings them back (from the store, or taken again), and then they are dead-lettered
     * instead of failing again.
     */
    private final Map<String, Throwable> poisoned = new HashMap<>();

    AsyncStepProcessor(
            String name,
            String storeName,
            StepLogic<K, V, R> logic,
            Async options,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        this.name = name;
        this.storeName = storeName;
        this.logic = logic;
        this.options = options;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.host = ((InternalContext) context).asyncHost();
        this.meters = host.meters(name);
        this.instance = host.instanceCalls(name);
        KeyValueStore<Long, byte[]> store = context.getStateStore(storeName);
        this.log = new InFlightLog<>(store, keySerde, valueSerde);
        this.calls = new InFlightCalls<>(options.order());
        logic.init(context);
        callAgainWhatTheStoreHolds();
    }

    @Override
    public void process(Record<K, V> record) {
        ConsumerRecord<byte[], byte[]> origin = host.input();
        if (origin == null) {
            origin = originOf(record); // forwarded by a wall-clock punctuation: no input record
        }
        fromLastOrigin = origin == lastOrigin ? fromLastOrigin + 1 : 0;
        lastOrigin = origin;
        String key =
                name + ":" + origin.topic() + "-" + origin.partition() + "@" + origin.offset() + ":" + fromLastOrigin;
        Call<K, V> call = new Call<>(nextSeq++, record, origin, key);
        inFlight(1);
        if (calls.add(call)) {
            startOrHold(call);
        }
    }

    // ---- AsyncStep ---------------------------------------------------------------------------

    @Override
    public boolean ready() {
        return !finished.isEmpty() || (!held.isEmpty() && underInstanceBound());
    }

    @Override
    public boolean full() {
        return calls.size() >= options.maxInFlight()
                || (options.maxInFlightPerInstance() > 0 && instance.taken().get() >= options.maxInFlightPerInstance());
    }

    @Override
    public int inFlight() {
        return calls == null ? 0 : calls.size();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long waitingSinceNanos() {
        return calls == null || calls.size() == 0 ? Long.MAX_VALUE : progressNanos;
    }

    @Override
    public long oldestInFlight() {
        return calls == null ? Long.MAX_VALUE : calls.oldestTimestamp();
    }

    @Override
    public int complete() {
        int released = 0;
        Finished f;
        while ((f = finished.poll()) != null) {
            @SuppressWarnings("unchecked")
            Call<K, V> call = (Call<K, V>) f.call();
            if (!calls.holds(call) || f.attempt() != call.attempt || call.state == Call.State.DONE) {
                continue; // abandoned by an abort, or an attempt that already timed out
            }
            if (f.retryDue()) {
                start(call);
                continue;
            }
            meters.attempt(f.error() == null, f.error() instanceof java.util.concurrent.TimeoutException);
            if (f.error() == null) {
                finish(call, f.value(), null);
                released += release(call);
            } else if (retryable(call, f.error())) {
                backOff(call);
            } else {
                finish(call, null, f.error());
                released += release(call);
            }
        }
        while (!held.isEmpty() && underInstanceBound()) {
            start(held.pollFirst()); // calls finished here or on other tasks made room
        }
        return released;
    }

    // ---- the commit --------------------------------------------------------------------------

    /** Step 1: the calls taken since the last commit and still in flight go into the store. */
    @Override
    public void beforeCommit() {
        for (Call<K, V> call : calls.calls()) {
            if (!call.logged) {
                log.write(call);
            }
        }
    }

    @Override
    public void committed() {
        if (!poisoned.isEmpty()) {
            java.util.Set<String> inFlight = new java.util.HashSet<>();
            calls.calls().forEach(c -> inFlight.add(c.idempotencyKey()));
            poisoned.keySet().retainAll(inFlight); // the others were taken again and dead-lettered whole
        }
    }

    /**
     * The task's work since its last commit is undone: the store is back to what that commit
     * wrote, the records taken since will be taken again; call again for what the store holds.
     */
    @Override
    public void afterAbort() {
        abandonAll();
        callAgainWhatTheStoreHolds();
    }

    @Override
    public void close() {
        if (calls != null) {
            abandonAll(); // the commit before the close stored them: the next owner calls again
        }
        logic.close();
    }

    // ---- calls -------------------------------------------------------------------------------

    private void callAgainWhatTheStoreHolds() {
        for (Call<K, V> call : log.read()) {
            nextSeq = Math.max(nextSeq, call.seq + 1);
            inFlight(1);
            if (calls.add(call)) {
                startOrHold(call);
            }
        }
    }

    private void abandonAll() {
        int started = 0;
        for (Call<K, V> call : calls.calls()) {
            if (call.state == Call.State.RUNNING || call.state == Call.State.BACKOFF) {
                started++;
            }
        }
        instance.started().addAndGet(-started);
        held.clear();
        inFlight(-calls.clear());
        finished.clear();
        lastOrigin = null;
    }

    private boolean underInstanceBound() {
        return options.maxInFlightPerInstance() == 0 || instance.started().get() < options.maxInFlightPerInstance();
    }

    /** Starts a call whose turn came, or holds it while the instance is at its bound. */
    private void startOrHold(Call<K, V> call) {
        if (underInstanceBound()) {
            start(call);
        } else {
            held.addLast(call);
        }
    }

    private void finish(Call<K, V> call, Object value, Throwable error) {
        call.done(value, error);
        instance.started().decrementAndGet();
    }

    private void inFlight(int delta) {
        if (delta > 0 && calls.size() == delta) {
            progressNanos = System.nanoTime(); // the wait starts with the first call in flight
        }
        host.signal().inFlight(delta);
        meters.inFlight(delta);
        instance.taken().addAndGet(delta);
    }

    private void start(Call<K, V> call) {
        if (call.state == Call.State.WAITING) {
            instance.started().incrementAndGet(); // a retry (from BACKOFF) is counted already
        }
        call.attempt++;
        call.state = Call.State.RUNNING;
        int attempt = call.attempt;
        CompletionStage<? extends R> stage;
        try {
            stage = logic.call(call.record, call);
            if (stage == null) {
                throw new NullPointerException("async step '" + name + "' returned a null CompletionStage");
            }
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        // A stage of our own, so the time-out does not depend on what the function returned.
        CompletableFuture<Object> attemptDone = new CompletableFuture<>();
        stage.whenComplete((v, e) -> {
            if (e == null) {
                attemptDone.complete(v);
            } else {
                attemptDone.completeExceptionally(e);
            }
        });
        attemptDone.orTimeout(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
        if (stage instanceof java.util.concurrent.Future<?> running) {
            // A timed-out attempt's work is not wanted any more: an HttpClient request is aborted.
            attemptDone.whenComplete((v, e) -> {
                if (e instanceof java.util.concurrent.TimeoutException) {
                    running.cancel(true);
                }
            });
        }
        attemptDone.whenComplete((v, e) -> report(new Finished(call, attempt, v, unwrap(e), false)));
    }

    private void report(Finished f) {
        finished.add(f);
        host.signal().raise();
    }

    private boolean retryable(Call<K, V> call, Throwable error) {
        Async.Retry retry = options.retry();
        return call.attempt < retry.attempts() && retry.retryOn().test(error);
    }

    private void backOff(Call<K, V> call) {
        call.state = Call.State.BACKOFF;
        meters.retried();
        long delay = options.retry().backoffBefore(call.attempt + 1).toMillis();
        if (delay == 0) {
            start(call);
            return;
        }
        Finished due = Finished.retry(call);
        // On the timer's own thread: the default executor of CompletableFuture starts a thread per
        // task on machines with 2 cores or fewer, and reporting is only a queue offer.
        CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS, Runnable::run)
                .execute(() -> report(due));
    }

    /**
     * {@code call} is done: forwards what may leave the step now, in order, and starts the next
     * call of its key.
     *
     * @return how many calls left the step
     */
    private int release(Call<K, V> done) {
        List<Call<K, V>> out = calls.releasable(done);
        for (Call<K, V> call : out) {
            Call<K, V> next = calls.remove(call);
            inFlight(-1);
            if (call.logged) {
                log.delete(call);
            }
            progressNanos = System.nanoTime();
            meters.left(progressNanos - call.takenNanos);
            leave(call);
            if (next != null) {
                startOrHold(next);
            }
        }
        return out.size();
    }

    /** Forwards the call's result downstream, or dead-letters (or fails on) its failure. */
    private void leave(Call<K, V> call) {
        Throwable earlier = poisoned.remove(call.idempotencyKey());
        if (earlier != null) {
            host.deadLetter(call.origin, name, earlier);
            return;
        }
        if (call.failure != null) {
            // An unavailable service is never dead-lettered: the shared decision stops the instance.
            meters.failedForGood(options.onFailure() == Async.OnFailure.DEAD_LETTER
                    && ErrorDecisions.unavailable(call.failure) == null);
            if (options.onFailure() == Async.OnFailure.FAIL) {
                throw Stage.CALL.failed(call.origin, failedFor(call), "async step '" + name + "' has OnFailure.FAIL");
            }
            host.deadLetter(call.origin, name, failedFor(call));
            return;
        }
        host.runFor(call.origin, () -> {
            try {
                @SuppressWarnings("unchecked")
                R result = (R) call.result;
                logic.complete(call.record, result, context);
            } catch (RuntimeException e) {
                poisoned.put(call.idempotencyKey(), e);
                host.failed(call.origin, name, e); // under exactly-once this throws: the abort brings it back
                poisoned.remove(call.idempotencyKey());
            }
        });
    }

    private Throwable failedFor(Call<K, V> call) {
        Throwable e = call.failure;
        if (e instanceof java.util.concurrent.TimeoutException) {
            return new java.util.concurrent.TimeoutException("async step '" + name + "': attempt " + call.attempt
                    + " took longer than its timeout of " + options.timeout().toMillis() + " ms");
        }
        return e;
    }

    /** A record's origin when no input record is being processed: itself, as the step would store it. */
    private ConsumerRecord<byte[], byte[]> originOf(Record<K, V> r) {
        byte[] key = r.key() == null ? null : keySerde.serialize(storeName, r.key());
        byte[] value = r.value() == null ? null : valueSerde.serialize(storeName, r.value());
        return InFlightLog.origin(
                r.topic() == null ? storeName : r.topic(),
                r.partition(),
                r.offset() >= 0 ? r.offset() : r.timestamp(),
                r.timestamp(),
                key,
                value,
                new org.apache.kafka.common.header.internals.RecordHeaders(
                        r.headers().toArray()));
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    @Override
    public String toString() {
        return "async step '" + name + "': " + calls;
    }
}
