package io.weir.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.config.Settings;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** WeirConfig reads every declared setting, and its public API shows no internal type. */
class WeirConfigSettingsTest {

    /**
     * The configuration every setting is changed from: derived settings are set, so that changing
     * the setting they derive from shows only in that setting's own accessor.
     */
    private static final Map<String, String> BASE = Map.of(
            "application.id",
            "app",
            "bootstrap.servers",
            "b:1",
            "run.mode",
            "bounded",
            "commit.interval.ms",
            "100",
            "dead.letter.topic",
            "app-dlq",
            "late.records.topic",
            "app-late",
            "http.admin.bind.address",
            "0.0.0.0",
            "http.tls.keystore.path",
            "/tls/a.p12",
            "http.tls.truststore.path",
            "/tls/ca.p12",
            "http.tls.client.auth",
            "none");

    /** For each Weir setting, a valid value other than {@link #BASE}'s or the default. */
    private static final Map<String, String> OTHER = Map.ofEntries(
            Map.entry("application.id", "other"),
            Map.entry("bootstrap.servers", "other:1"),
            Map.entry("processing.guarantee", "at_least_once"),
            Map.entry("num.stream.threads", "3"),
            Map.entry("commit.interval.ms", "7"),
            Map.entry("state.dir", "/elsewhere"),
            Map.entry("instance.id", "i-1"),
            Map.entry("run.mode", "streaming"),
            Map.entry("bounded.until", "2024-05-01T00:00:00Z"),
            Map.entry("describe.file", "/tmp/topology.json"),
            Map.entry("shutdown.timeout.ms", "7"),
            Map.entry("shutdown.leave.group", "true"),
            Map.entry("stall.warn.ms", "2000"),
            Map.entry("http.port", "0"),
            Map.entry("http.bind.address", "127.0.0.1"),
            Map.entry("http.advertised.url", "http://app-0.app:8080"),
            Map.entry("http.admin.port", "0"),
            Map.entry("http.admin.bind.address", "127.0.0.1"),
            Map.entry("http.tls.keystore.path", "/tls/b.p12"),
            Map.entry("http.tls.keystore.type", "jks"),
            Map.entry("http.tls.keystore.password", "x"),
            Map.entry("http.tls.truststore.path", "/tls/other.p12"),
            Map.entry("http.tls.truststore.type", "jks"),
            Map.entry("http.tls.truststore.password", "x"),
            Map.entry("http.tls.client.auth", "required"),
            Map.entry("http.auth.token", "t"),
            Map.entry("http.auth.token.file", "/run/token"),
            Map.entry("http.auth.scope", "all"),
            Map.entry("http.admin.open", "true"),
            Map.entry("http.reload.interval.ms", "1000"),
            Map.entry("num.standby.replicas", "1"),
            Map.entry("max.warmup.replicas", "3"),
            Map.entry("acceptable.recovery.lag", "7"),
            Map.entry("probing.rebalance.interval.ms", "7000"),
            Map.entry("failure.detection.ms", "0"),
            Map.entry("restore.bulk.min.records", "7"),
            Map.entry("error.mode", "fail"),
            Map.entry("dead.letter.topic", "dlq"),
            Map.entry("dead.letter.max.message.bytes", "2048"),
            Map.entry("buffered.records.per.partition", "7"),
            Map.entry("poll.ms", "7"),
            Map.entry("transaction.timeout.ms", "2000"),
            Map.entry("commit.retry.timeout.ms", "7"),
            Map.entry("internal.topic.replication.factor", "3"),
            Map.entry("state.cache.max.bytes", "7"),
            Map.entry("state.flush.interval.ms", "7"),
            Map.entry("state.cleanup.delay.ms", "7"),
            Map.entry("repartition.purge.interval.ms", "7"),
            Map.entry("rocksdb.memory.bytes", "33554432"),
            Map.entry("store.read.cache.bytes", "7"),
            Map.entry("metrics.kafka.clients.enabled", "false"),
            Map.entry("tracing.step.spans", "true"),
            Map.entry("tracing.root.ratio", "0.5"),
            Map.entry("default.timestamp", "wall_clock"),
            Map.entry("max.out.of.orderness.ms", "7"),
            Map.entry("idle.timeout.ms", "7"),
            Map.entry("early.results.max.lag.records", "7"),
            Map.entry("late.records.mode", "drop"),
            Map.entry("late.records.topic", "late"),
            Map.entry("window.changelog.additional.retention.ms", "7"));

    @Test
    void everyDeclaredSettingChangesWhatAnAccessorReturns() throws Exception {
        assertThat(OTHER.keySet())
                .as("a value for every setting of Settings.ALL")
                .containsExactlyInAnyOrderElementsOf(Settings.ALL.keySet());
        Map<String, Object> base = accessors(build(BASE));
        for (String name : Settings.ALL.keySet()) {
            Map<String, String> changed = new HashMap<>(BASE);
            changed.put(name, OTHER.get(name));
            Map<String, Object> read = accessors(build(changed));
            Set<String> differ = new TreeSet<>();
            base.forEach((accessor, value) -> {
                if (!Objects.equals(value, read.get(accessor))) {
                    differ.add(accessor);
                }
            });
            assertThat(differ).as("accessors that read " + name).isNotEmpty();
        }
    }

    @Test
    void publicSignaturesShowNoInternalType() {
        List<Class<?>> types = new ArrayList<>(List.of(WeirConfig.class));
        types.addAll(Arrays.asList(WeirConfig.class.getClasses()));
        Set<String> internal = new TreeSet<>();
        for (Class<?> type : types) {
            for (Method m : type.getMethods()) {
                check(type.getSimpleName() + "." + m.getName(), m.getGenericReturnType(), internal);
                for (Type p : m.getGenericParameterTypes()) {
                    check(type.getSimpleName() + "." + m.getName(), p, internal);
                }
            }
            for (Constructor<?> c : type.getConstructors()) {
                for (Type p : c.getGenericParameterTypes()) {
                    check(type.getSimpleName() + "()", p, internal);
                }
            }
            Arrays.stream(type.getFields()).forEach(f -> check(f.getName(), f.getGenericType(), internal));
        }
        assertThat(types).contains(WeirConfig.Builder.class);
        assertThat(internal).isEmpty();
    }

    private static WeirConfig build(Map<String, String> values) {
        WeirConfig.Builder b = WeirConfig.builder().environment(Map.of());
        values.forEach(b::set);
        return b.build();
    }

    /** The results of WeirConfig's public accessors, by name ({@code values()} and {@code toString()} aside). */
    private static Map<String, Object> accessors(WeirConfig config) throws Exception {
        Map<String, Object> read = new HashMap<>();
        for (Method m : WeirConfig.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())
                    && !Modifier.isStatic(m.getModifiers())
                    && m.getParameterCount() == 0
                    && !Set.of("values", "toString").contains(m.getName())) {
                read.put(m.getName(), m.invoke(config));
            }
        }
        return read;
    }

    private static void check(String where, Type type, Set<String> internal) {
        if (type instanceof Class<?> c) {
            Class<?> top = c.isArray() ? c.getComponentType() : c;
            if (top.getPackageName().startsWith("io.weir")
                    && top.getPackageName().contains("internal")) {
                internal.add(where + ": " + top.getName());
            }
        } else if (type instanceof ParameterizedType p) {
            check(where, p.getRawType(), internal);
            Arrays.stream(p.getActualTypeArguments()).forEach(a -> check(where, a, internal));
        } else if (type instanceof WildcardType w) {
            Arrays.stream(w.getUpperBounds()).forEach(b -> check(where, b, internal));
            Arrays.stream(w.getLowerBounds()).forEach(b -> check(where, b, internal));
        } else if (type instanceof GenericArrayType a) {
            check(where, a.getGenericComponentType(), internal);
        } else if (type instanceof TypeVariable<?> v) {
            Arrays.stream(v.getBounds()).forEach(b -> check(where, b, internal));
        }
    }
}
