package io.weir.internal.topology;

import io.weir.internal.config.InternalTopic;
import io.weir.processor.KeyValueStoreBuilder;
import io.weir.processor.SessionStoreBuilder;
import io.weir.processor.StoreBuilder;
import io.weir.processor.WindowStoreBuilder;
import io.weir.serde.Serde;
import java.time.Duration;
import java.util.Objects;

/**
 * A state store of the topology: its stable name (which also names its changelog topic
 * {@code <application.id>-<name>-changelog}), kind, serdes, and options. One instance per task.
 *
 * @param ttl          how long an entry lives after its last write, or null for ever
 *                     ({@link Kind#KEY_VALUE} only)
 * @param kind         what the store holds, which decides its typed view and its bytes layout
 * @param windowSizeMs the length of every window ({@link Kind#WINDOW} only, positive; 0 otherwise)
 * @param retention    how long, in event time, a window or session is kept after its end
 *                     ({@link Kind#WINDOW} and {@link Kind#SESSION} only, not negative; null otherwise)
 * @param sourceTopic  the user topic that serves as this store's changelog instead of a topic of its
 *                     own (a table read from a compacted topic, see {@code SourceChangelogs}), or null.
 *                     Such a store is restored from the topic only up to its task's committed input
 *                     offset, and Weir never creates, deletes or writes that topic
 */
public record StoreSpec(
        String name,
        Serde<?> keySerde,
        Serde<?> valueSerde,
        boolean persistent,
        boolean logged,
        Duration ttl,
        Kind kind,
        long windowSizeMs,
        Duration retention,
        String sourceTopic) {

    /** What a store holds. */
    public enum Kind {
        /** One value per key: {@code KeyValueStore}. */
        KEY_VALUE,
        /** One value per key and fixed-size window: {@code WindowStore}. */
        WINDOW,
        /** One value per key and session: {@code SessionStore}. */
        SESSION;

        /** {@code key-value}, {@code window}, {@code session}: the kind as messages spell it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public StoreSpec {
        Objects.requireNonNull(kind, "kind");
        if (sourceTopic != null && (kind != Kind.KEY_VALUE || !logged || ttl != null)) {
            throw new IllegalArgumentException("store '" + name + "': only a logged key-value store without TTL"
                    + " can use its source topic '" + sourceTopic + "' as changelog");
        }
        if (kind != Kind.KEY_VALUE && ttl != null) {
            throw new IllegalArgumentException(
                    "store '" + name + "': a TTL is for key-value stores; a " + kind + " store has a retention");
        }
        if (kind == Kind.WINDOW ? windowSizeMs <= 0 : windowSizeMs != 0) {
            throw new IllegalArgumentException("store '" + name + "': window size " + windowSizeMs + " ms"
                    + (kind == Kind.WINDOW ? " must be positive" : " is for window stores only"));
        }
        if (kind == Kind.KEY_VALUE ? retention != null : retention == null || retention.isNegative()) {
            throw new IllegalArgumentException("store '" + name + "': retention " + retention
                    + (kind == Kind.KEY_VALUE ? " is for window and session stores only" : " must not be negative"));
        }
    }

    /** A store with a changelog of its own (when logged). */
    public StoreSpec(
            String name,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            boolean persistent,
            boolean logged,
            Duration ttl,
            Kind kind,
            long windowSizeMs,
            Duration retention) {
        this(name, keySerde, valueSerde, persistent, logged, ttl, kind, windowSizeMs, retention, null);
    }

    /** A key-value store. */
    public StoreSpec(
            String name, Serde<?> keySerde, Serde<?> valueSerde, boolean persistent, boolean logged, Duration ttl) {
        this(name, keySerde, valueSerde, persistent, logged, ttl, Kind.KEY_VALUE, 0, null);
    }

    /** What {@code store} declares, for the processor API's stores. */
    public static StoreSpec of(StoreBuilder<?, ?> store) {
        if (store instanceof KeyValueStoreBuilder<?, ?> kv) {
            return new StoreSpec(
                    kv.name(),
                    kv.keySerde(),
                    kv.valueSerde(),
                    kv.persistent(),
                    kv.logged(),
                    kv.ttl().orElse(null));
        }
        if (store instanceof WindowStoreBuilder<?, ?> w) {
            return new StoreSpec(
                    w.name(),
                    w.keySerde(),
                    w.valueSerde(),
                    w.persistent(),
                    w.logged(),
                    null,
                    Kind.WINDOW,
                    w.windowSize().toMillis(),
                    w.retention());
        }
        SessionStoreBuilder<?, ?> s = (SessionStoreBuilder<?, ?>) store; // the interface is sealed
        return new StoreSpec(
                s.name(),
                s.keySerde(),
                s.valueSerde(),
                s.persistent(),
                s.logged(),
                null,
                Kind.SESSION,
                0,
                s.retention());
    }

    /** This store kept in memory ({@code false}) or on disk. */
    public StoreSpec withPersistent(boolean persistent) {
        return new StoreSpec(
                name, keySerde, valueSerde, persistent, logged, ttl, kind, windowSizeMs, retention, sourceTopic);
    }

    /** This store with or without a changelog (without, it cannot follow a source topic either). */
    public StoreSpec withLogged(boolean logged) {
        String topic = logged ? sourceTopic : null;
        return new StoreSpec(name, keySerde, valueSerde, persistent, logged, ttl, kind, windowSizeMs, retention, topic);
    }

    /** This store with {@code topic} as its changelog, or (null) with a changelog of its own. */
    public StoreSpec withSourceTopic(String topic) {
        return new StoreSpec(name, keySerde, valueSerde, persistent, logged, ttl, kind, windowSizeMs, retention, topic);
    }

    /** True when a user topic is this store's changelog: Weir must not create, write or delete it. */
    public boolean changelogIsSource() {
        return sourceTopic != null;
    }

    /**
     * The changelog topic's name for an application: {@code <applicationId>-<store>-changelog},
     * or the source topic when it serves as the changelog ({@link #changelogIsSource()}).
     */
    public String changelogTopic(String applicationId) {
        return sourceTopic != null ? sourceTopic : InternalTopic.CHANGELOG.of(applicationId, name);
    }

    /**
     * The {@code retention.ms} of the changelog topic of a window or session store (which is
     * {@code compact,delete}): retention plus window size plus {@code additionalMs}
     * ({@code window.changelog.additional.retention.ms}, a day by default, as Kafka Streams'
     * {@code windowstore.changelog.additional.retention.ms}). The topic's retention runs on record
     * (wall-clock) time while the store's runs on event time: the addition covers the watermark
     * trailing the clock. Saturates at {@link Long#MAX_VALUE}.
     *
     * @throws IllegalStateException for a key-value store, whose changelog is compacted only
     */
    public long changelogRetentionMs(long additionalMs) {
        if (kind == Kind.KEY_VALUE) {
            throw new IllegalStateException("the changelog of key-value store '" + name + "' has no time retention");
        }
        long ms = retentionMs() + windowSizeMs;
        return ms < 0 || ms > Long.MAX_VALUE - additionalMs ? Long.MAX_VALUE : ms + additionalMs;
    }

    /** The retention in milliseconds, saturated at {@link Long#MAX_VALUE}; 0 for a key-value store. */
    public long retentionMs() {
        if (retention == null) {
            return 0;
        }
        try {
            return retention.toMillis();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
