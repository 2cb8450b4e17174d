package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.PodNetwork;
import io.weir.testkit.EmbeddedKafka;

/**
 * The testkit's in-process broker, reachable from pods: besides the loopback listener the runner's
 * clients use, an external listener bound to every address and advertised at the Podman bridge's
 * gateway ({@link PodNetwork#GATEWAY}). A pod bootstraps from {@link #podBootstrapServers()} and is
 * told that address back in the metadata, which a loopback listener could not give it. (Kafka 4
 * refuses to change {@code advertised.listeners} of a running KRaft broker, so the listener is set
 * up at start.)
 */
final class PodBroker implements AutoCloseable {

    private final EmbeddedKafka kafka;

    private PodBroker(EmbeddedKafka kafka) {
        this.kafka = kafka;
    }

    static PodBroker start() {
        return new PodBroker(
                EmbeddedKafka.builder().externalListener(PodNetwork.GATEWAY).start());
    }

    /** For the runner's own clients (loopback). */
    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** For pods: the gateway of the Podman bridge. */
    String podBootstrapServers() {
        return kafka.externalBootstrapServers();
    }

    @Override
    public void close() {
        kafka.close();
    }
}
