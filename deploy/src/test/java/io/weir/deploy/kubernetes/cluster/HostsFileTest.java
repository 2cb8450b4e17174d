package io.weir.deploy.kubernetes.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner's DNS block replaces itself and leaves Podman's lines alone. */
class HostsFileTest {

    private static final String PODMAN =
            "127.0.0.1\tlocalhost\n10.89.0.5\tweir-0\n10.89.0.1\thost.containers.internal\n";

    @Test
    void recordsAreAppendedAfterPodmansLines() {
        String hosts = HostsFile.withRecords(PODMAN, Map.of("weir-1.weir.streaming.svc", "10.89.0.6"));

        assertThat(hosts)
                .isEqualTo(
                        PODMAN + HostsFile.BEGIN + "\n10.89.0.6\tweir-1.weir.streaming.svc\n" + HostsFile.END + "\n");
    }

    @Test
    void aNewAddressReplacesTheOldBlockWholly() {
        String once = HostsFile.withRecords(PODMAN, Map.of("weir-1.weir.streaming.svc", "10.89.0.6"));
        String twice = HostsFile.withRecords(
                once, Map.of("weir-1.weir.streaming.svc", "10.89.0.9", "weir-0.weir.streaming.svc", "10.89.0.5"));

        assertThat(twice)
                .isEqualTo(PODMAN + HostsFile.BEGIN + "\n10.89.0.5\tweir-0.weir.streaming.svc\n"
                        + "10.89.0.9\tweir-1.weir.streaming.svc\n" + HostsFile.END + "\n");
        assertThat(twice).doesNotContain("10.89.0.6");
    }

    @Test
    void linesPodmanAddsAfterTheBlockAreKept() {
        String once = HostsFile.withRecords(PODMAN, Map.of("a", "10.89.0.6"));
        String touched = once + "10.89.0.7\tadded-later\n";

        assertThat(HostsFile.withRecords(touched, Map.of("a", "10.89.0.8")))
                .startsWith(PODMAN + "10.89.0.7\tadded-later\n" + HostsFile.BEGIN);
    }
}
