package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A SASL_SSL broker with the StandardAuthorizer: the super user may do anything, others what ACLs allow. */
class SecuredEmbeddedKafkaIT {

    @ParameterizedTest
    @EnumSource(KafkaSecurity.Mechanism.class)
    void superUserWorksOthersNeedAclsAndWrongPasswordsFail(KafkaSecurity.Mechanism mechanism) throws Exception {
        KafkaSecurity security = KafkaSecurity.saslSsl(mechanism).user("app");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().security(security).start();
                KafkaTestClient admin = KafkaTestClient.connect(kafka)) {
            assertThat(kafka.bootstrapServers()).startsWith(NodeSpec.HOST);
            admin.createTopic("secured", 1);
            admin.produceStrings("secured", List.of(KeyValue.of("k", "v")));
            assertThat(admin.readStringsAtLeast("secured", 1, Duration.ofSeconds(30)))
                    .hasSize(1);

            try (Admin app = Admin.create(settings(kafka, security.clientSettings("app")))) {
                assertThatThrownBy(() -> app.describeTopics(List.of("secured"))
                                .allTopicNames()
                                .get())
                        .isInstanceOf(ExecutionException.class)
                        .cause()
                        .isInstanceOf(TopicAuthorizationException.class);
                admin.admin()
                        .createAcls(List.of(new AclBinding(
                                new ResourcePattern(ResourceType.TOPIC, "secured", PatternType.LITERAL),
                                new AccessControlEntry(
                                        KafkaSecurity.principal("app"),
                                        "*",
                                        AclOperation.DESCRIBE,
                                        AclPermissionType.ALLOW))))
                        .all()
                        .get();
                Await.until(Duration.ofSeconds(30), () -> "app may describe the topic", () -> {
                    try {
                        return app.describeTopics(List.of("secured"))
                                .allTopicNames()
                                .get()
                                .containsKey("secured");
                    } catch (ExecutionException e) {
                        return false;
                    }
                });
            }
            Map<String, String> wrong = new HashMap<>(security.clientSettings("app"));
            wrong.put("sasl.jaas.config", wrong.get("sasl.jaas.config").replace(security.password("app"), "wrong"));
            try (Admin intruder = Admin.create(settings(kafka, wrong))) {
                assertThatThrownBy(() -> intruder.listTopics().names().get())
                        .cause()
                        .isInstanceOf(SaslAuthenticationException.class);
            }
        }
    }

    private static Map<String, Object> settings(KafkaCluster kafka, Map<String, String> security) {
        Map<String, Object> s = new HashMap<>(security);
        s.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        s.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        s.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return s;
    }
}
