package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KafkaClustersIT {

    /** Started in a child JVM whose classpath lacks Testcontainers. */
    static final class WithoutTestcontainers {
        public static void main(String[] args) {
            try (KafkaCluster cluster = KafkaClusters.start(KafkaClusters.Backend.TESTCONTAINERS)) {
                System.out.println(
                        "started " + cluster.getClass().getSimpleName() + " at " + cluster.bootstrapServers());
            }
        }
    }

    @Test
    void testcontainersBackendFallsBackToInProcessWhenTheJarIsAbsent() {
        String classpath = Arrays.stream(testClasspath().split(File.pathSeparator))
                .filter(entry -> !entry.contains("testcontainers") && !entry.contains("docker-java"))
                .collect(Collectors.joining(File.pathSeparator));
        try (ChildJvm child = ChildJvm.builder(WithoutTestcontainers.class)
                .classpath(classpath)
                .quietLogging()
                .jvmOptions("-Xmx512m")
                .start()) {
            assertThat(child.awaitExit(Duration.ofSeconds(60)))
                    .as(child.outputTail(30))
                    .isZero();
            assertThat(child.output())
                    .contains("started EmbeddedKafka at 127.0.0.1:")
                    .doesNotContain("NoClassDefFoundError");
        }
    }

    @Test
    void testcontainersBackendFallsBackToInProcessWithoutDocker() {
        org.junit.jupiter.api.Assumptions.assumeFalse(TestcontainersKafka.dockerAvailable(), "Docker is available");
        try (KafkaCluster cluster = KafkaClusters.start(KafkaClusters.Backend.TESTCONTAINERS)) {
            assertThat(cluster).isInstanceOf(EmbeddedKafka.class);
        }
    }

    /** Surefire and Failsafe put a manifest-only jar on java.class.path and the real entries here. */
    private static String testClasspath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }
}
