package io.weir.internal.cluster.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class AuthorizationFailuresTest {

    private static final WeirConfig CONFIG = WeirConfig.builder()
            .applicationId("orders")
            .bootstrapServers("b:1")
            .environment(Map.of())
            .build();

    @Test
    void aMissingAclIsNamedWithTheResourceKafkaLeftOut() {
        Throwable txn = AuthorizationFailures.explained(
                new KafkaException(
                        "init failed",
                        new TransactionalIdAuthorizationException("Transactional Id authorization failed.")),
                CONFIG);
        assertThat(txn)
                .isInstanceOf(ClusterException.class)
                .hasMessageStartingWith("orders is not authorized to Write the transactional id prefix 'orders-'"
                        + " (TransactionalIdAuthorizationException); weir acls plan --app orders");
        assertThat(AuthorizationFailures.explained(new TopicAuthorizationException(Set.of("out", "in")), CONFIG))
                .hasMessageContaining("use the topic(s) [in, out]");
        assertThat(AuthorizationFailures.explained(GroupAuthorizationException.forGroupId("orders"), CONFIG))
                .hasMessageContaining("Read the group 'orders'");
    }

    @Test
    void otherFailuresStayAsTheyAre() {
        IllegalStateException other = new IllegalStateException("boom");
        assertThat(AuthorizationFailures.explained(other, CONFIG)).isSameAs(other);
    }
}
