package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KafkaClustersTest {

    @Test
    void parsesBackendNamesCaseInsensitively() {
        assertThat(KafkaClusters.Backend.parse("inprocess")).isEqualTo(KafkaClusters.Backend.INPROCESS);
        assertThat(KafkaClusters.Backend.parse(" Process ")).isEqualTo(KafkaClusters.Backend.PROCESS);
        assertThat(KafkaClusters.Backend.parse("testcontainers")).isEqualTo(KafkaClusters.Backend.TESTCONTAINERS);
        assertThat(KafkaClusters.Backend.parse("in-process")).isEqualTo(KafkaClusters.Backend.INPROCESS);
    }

    @Test
    void rejectsUnknownBackendNamingTheProperty() {
        assertThatThrownBy(() -> KafkaClusters.Backend.parse("zookeeper"))
                .hasMessageContaining(KafkaClusters.BACKEND_PROPERTY);
    }

    @Test
    void defaultsToInProcess() {
        String previous = System.getProperty(KafkaClusters.BACKEND_PROPERTY);
        System.clearProperty(KafkaClusters.BACKEND_PROPERTY);
        try {
            assertThat(KafkaClusters.backendFromSystemProperty()).isEqualTo(KafkaClusters.Backend.INPROCESS);
        } finally {
            if (previous != null) {
                System.setProperty(KafkaClusters.BACKEND_PROPERTY, previous);
            }
        }
    }
}
