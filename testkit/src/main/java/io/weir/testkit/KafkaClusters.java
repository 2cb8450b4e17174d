package io.weir.testkit;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a {@link KafkaCluster} on the backend a build asks for, so the same tests run against an
 * in-process broker on a laptop or in CI, against broker processes, or against a container.
 *
 * <p>The system property {@value #BACKEND_PROPERTY} chooses: {@code inprocess} (default,
 * {@link EmbeddedKafka}), {@code process} ({@link ChildProcessKafka}) or {@code testcontainers}.
 * Testcontainers is optional: when its jar is absent or no Docker engine answers, the in-process
 * backend is used instead and a warning says so. Never requires Docker.
 */
public final class KafkaClusters {

    /** System property that selects the backend. */
    public static final String BACKEND_PROPERTY = "weir.testkit.backend";

    private static final Logger log = LoggerFactory.getLogger(KafkaClusters.class);

    /** Where the brokers run. */
    public enum Backend {
        /** In this JVM: {@link EmbeddedKafka}. */
        INPROCESS,
        /** One JVM per node: {@link ChildProcessKafka}. */
        PROCESS,
        /** A Testcontainers {@code apache/kafka} container; single broker only. */
        TESTCONTAINERS;

        /** Parses {@code inprocess}, {@code process} or {@code testcontainers}, case-insensitively. */
        public static Backend parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT).replace("-", ""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Unknown " + BACKEND_PROPERTY + " '" + name + "'; use inprocess, process or testcontainers", e);
            }
        }
    }

    private KafkaClusters() {}

    /** The backend named by {@value #BACKEND_PROPERTY}, {@code INPROCESS} when unset. */
    public static Backend backendFromSystemProperty() {
        String value = System.getProperty(BACKEND_PROPERTY);
        return value == null || value.isBlank() ? Backend.INPROCESS : Backend.parse(value);
    }

    /** A single broker on the backend named by {@value #BACKEND_PROPERTY}. */
    public static KafkaCluster fromSystemProperty() {
        return start(backendFromSystemProperty());
    }

    /** A single broker on {@code backend}. */
    public static KafkaCluster start(Backend backend) {
        return start(backend, 1);
    }

    /**
     * {@code brokers} brokers on {@code backend}. Process clusters have 1 or 3 nodes;
     * Testcontainers has 1 (asking for more throws {@link UnsupportedOperationException}).
     */
    public static KafkaCluster start(Backend backend, int brokers) {
        switch (backend) {
            case PROCESS:
                return ChildProcessKafka.start(brokers);
            case TESTCONTAINERS:
                if (brokers != 1) {
                    throw new UnsupportedOperationException("The Testcontainers backend runs one broker");
                }
                if (testcontainersUsable()) {
                    return TestcontainersKafka.start();
                }
                log.warn(
                        "{}=testcontainers but Testcontainers or a Docker engine is not available; "
                                + "using an in-process broker",
                        BACKEND_PROPERTY);
                return EmbeddedKafka.start();
            case INPROCESS:
            default:
                return EmbeddedKafka.builder().brokers(brokers).start();
        }
    }

    /**
     * Checks for the jar by name before touching {@link TestcontainersKafka}: that class links
     * against Testcontainers, so it must not be loaded when the optional jar is missing.
     */
    private static boolean testcontainersUsable() {
        try {
            Class.forName("org.testcontainers.kafka.KafkaContainer", false, KafkaClusters.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
        try {
            return TestcontainersKafka.dockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            log.debug("Docker check failed", e);
            return false;
        }
    }
}
