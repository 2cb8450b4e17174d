package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaSecurity;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Weir end to end against a SASL_SSL broker (SCRAM-SHA-512, TLS) whose authorizer denies what no
 * ACL allows: an application granted exactly what {@code weir acls plan} prints runs exactly-once
 * with a changelog, a repartition topic, a dead-letter topic and a standby on a second instance,
 * and the CLI (savepoint, describe, reset, dlq resend, replay, cleanup) works as the same
 * principal; a missing ACL fails the start naming it; no password reaches a log, an exception or
 * the CLI's output.
 */
class SecurityIT {

    private static final Duration CATCH_UP = Duration.ofSeconds(90);
    private static final String PRINCIPAL = KafkaSecurity.principal("app");
    private static final ListAppender<ILoggingEvent> LOGS = new ListAppender<>();
    private static final List<String> SHOWN = new ArrayList<>();

    private static KafkaSecurity security;
    private static EmbeddedKafka kafka;
    private static KafkaTestClient admin;
    private static Path configFile;

    @BeforeAll
    static void securedBroker() throws IOException {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(LOGS);
        LOGS.start();
        security = KafkaSecurity.saslSsl(KafkaSecurity.Mechanism.SCRAM_SHA_512).user("app");
        kafka = EmbeddedKafka.builder().security(security).start();
        admin = KafkaTestClient.connect(kafka);
        admin.createTopic(SecuredCounting.INPUT, 3);
        admin.createTopic(SecuredCounting.OUTPUT, 3);
        // The application's and the CLI's settings, as a deployment keeps them: in a file.
        Properties p = new Properties();
        p.putAll(security.clientSettings("app"));
        p.put("bootstrap.servers", kafka.bootstrapServers());
        configFile = Files.createTempFile("weir-secured-", ".properties");
        try (OutputStream out = Files.newOutputStream(configFile)) {
            p.store(out, "SecurityIT");
        }
    }

    @AfterAll
    static void noSecretWasShownAndStop() {
        try {
            List<String> seen = new ArrayList<>(SHOWN);
            for (ILoggingEvent e : logged()) {
                seen.add(e.getFormattedMessage());
                if (e.getThrowableProxy() != null) {
                    seen.add(ThrowableProxyUtil.asString(e.getThrowableProxy()));
                }
            }
            // The capture works: it holds what the instances said.
            assertThat(logged()).anyMatch(e -> e.getFormattedMessage().contains("started as instance"));
            for (String secret : security.secrets()) {
                assertThat(seen).noneMatch(s -> s != null && s.contains(secret));
            }
        } finally {
            ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(LOGS);
            admin.close();
            kafka.close();
        }
    }

    @Test
    void anApplicationGrantedExactlyItsPlannedAclsRunsExactlyOnceAndTheCliWorksAsItsPrincipal() throws Exception {
        String app = "secured-app";
        grant(plannedAcls(app));
        List<KeyValue<String, String>> input = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 60; i++) {
            String region = "region-" + i % 4;
            input.add(KeyValue.of("user-" + i, region));
            expected.merge(region, 1L, Long::sum);
        }
        input.add(KeyValue.of("user-x", SecuredCounting.POISON));
        admin.produceStrings(SecuredCounting.INPUT, input);

        try (WeirApp first = start(app, "i1");
                WeirApp second = start(app, "i2")) {
            List<ConsumerRecord<String, Long>> out = admin.readUntil(
                    SecuredCounting.OUTPUT,
                    new StringDeserializer(),
                    new LongDeserializer(),
                    IsolationLevel.READ_COMMITTED,
                    r -> lastPerKey(r).equals(expected),
                    CATCH_UP);
            // read_committed: every record counted once (the last count is the number of records) and
            // no count written twice (updates within a commit may be combined: the counts rise strictly).
            Map<String, List<Long>> perKey = new TreeMap<>();
            out.forEach(
                    r -> perKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
            assertThat(perKey).hasSize(expected.size());
            perKey.forEach((region, counts) -> {
                assertThat(counts).as(region).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
                assertThat(counts.get(counts.size() - 1)).as(region).isEqualTo(expected.get(region));
            });
            assertThat(admin.readStringsAtLeast(app + "-dlq", 1, CATCH_UP))
                    .singleElement()
                    .satisfies(r -> assertThat(r.value()).isEqualTo(SecuredCounting.POISON));

            Outcome savepoint = weir("savepoint", "create", "--app", app, "--id", "secured");
            assertThat(savepoint.code()).as(savepoint.err()).isEqualTo(Weir.OK);
            assertThat(savepoint.out()).contains("savepoint secured complete");
            await().atMost(CATCH_UP).untilAsserted(() -> {
                Outcome d = weir("describe", "--app", app, "--topology", SecuredCounting.class.getName());
                assertThat(d.code()).as(d.err()).isEqualTo(Weir.OK);
                assertThat(d.out()).contains("consumer group Stable, 2 member(s)");
            });
            // The second instance keeps a standby of the first one's counts (num.standby.replicas=1).
            await().atMost(CATCH_UP)
                    .until(() -> logged().stream()
                            .anyMatch(e -> e.getFormattedMessage().startsWith("standby task")));
            Outcome topology = weir("topology", "show", "--app", app);
            assertThat(topology.code()).as(topology.err()).isEqualTo(Weir.OK);
            assertThat(topology.out()).contains("region-counts");
        }
        Outcome reset = weir("reset", "--app", app, "--to", "earliest", "--topology", SecuredCounting.class.getName());
        assertThat(reset.code()).as(reset.err()).isEqualTo(Weir.OK);
        Outcome listed = weir("savepoint", "list", "--app", app);
        assertThat(listed.out()).contains("secured");
        // The poison record back to its input, as the same principal, with the planned ACLs only.
        Outcome resend = weir("dlq", "resend", "--app", app);
        assertThat(resend.code()).as(resend.err()).isEqualTo(Weir.OK);
        assertThat(resend.out()).contains("1 resent from " + app + "-dlq");
        // The application only writes its output: reading it for a diff is refused, naming the topic.
        Outcome refused = weir("diff", "--left", SecuredCounting.OUTPUT, "--right", SecuredCounting.OUTPUT);
        assertThat(refused.code()).isEqualTo(Weir.FAILED);
        assertThat(refused.err())
                .contains(
                        "weir diff: the cluster refused: TopicAuthorizationException",
                        SecuredCounting.OUTPUT,
                        "an ACL is missing");
        grant(List.of(new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, SecuredCounting.OUTPUT, PatternType.LITERAL),
                new AccessControlEntry(PRINCIPAL, "*", AclOperation.READ, AclPermissionType.ALLOW))));
        Outcome diff = weir("diff", "--left", SecuredCounting.OUTPUT, "--right", SecuredCounting.OUTPUT);
        assertThat(diff.code()).as(diff.err()).isEqualTo(Weir.OK);
    }

    @Test
    void replayAndCleanupWorkAsTheApplicationsPrincipalWithThePlannedAcls() throws Exception {
        String app = "secured-tools";
        List<AclBinding> planned = plannedAcls(app);
        List<AclBinding> longerIds = planned.stream()
                .filter(b -> b.pattern().resourceType() == ResourceType.GROUP
                        && b.pattern().patternType() == PatternType.PREFIXED)
                .toList();
        assertThat(longerIds).hasSize(1);
        grant(planned.stream().filter(b -> !longerIds.contains(b)).toList());
        Outcome topics = weir("topics", "create", "--app", app, "--topology", SecuredCounting.class.getName());
        assertThat(topics.code()).as(topics.err()).isEqualTo(Weir.OK);
        // Another application whose id extends this one's, with a group and a changelog of its own.
        String longer = app + "-x";
        String longerChangelog = InternalTopic.CHANGELOG.of(longer, "counts");
        admin.createTopic(longerChangelog, 1);
        admin.admin()
                .alterConsumerGroupOffsets(
                        longer, Map.of(new TopicPartition(SecuredCounting.INPUT, 0), new OffsetAndMetadata(0)))
                .all()
                .get();

        try (MockKubernetes kubernetes = new MockKubernetes()) {
            Outcome replay = weir(with(
                    kubernetes,
                    "replay",
                    "--app",
                    app,
                    "--replay-id",
                    "r1",
                    "--record",
                    app + "-replay",
                    "--to",
                    "earliest",
                    "--topics",
                    SecuredCounting.INPUT,
                    "--topology",
                    SecuredCounting.class.getName()));
            assertThat(replay.code()).as(replay.err()).isEqualTo(Weir.OK);
            assertThat(replay.out()).contains("recorded replay r1 of " + app);
            assertThat(admin.admin()
                            .listConsumerGroupOffsets(app)
                            .partitionsToOffsetAndMetadata()
                            .get())
                    .containsKey(new TopicPartition(SecuredCounting.INPUT, 0));

            // Listing groups shows only those the principal may describe: without Describe on the
            // prefix, the longer id's changelog looks like this application's own.
            Outcome blind = weir(with(kubernetes, "cleanup", "--app", app, "--dry-run"));
            assertThat(blind.code()).as(blind.err()).isEqualTo(Weir.OK);
            assertThat(blind.out()).contains(longerChangelog);
            grant(longerIds);

            Outcome cleanup = weir(with(kubernetes, "cleanup", "--app", app, "--record", app + "-replay"));
            assertThat(cleanup.code()).as(cleanup.err()).isEqualTo(Weir.OK);
            assertThat(cleanup.out())
                    .doesNotContain(longerChangelog)
                    .contains("Cleaned up " + app + ": group deleted", "replay record " + app + "-replay");
        }
        Set<String> left = admin.admin().listTopics().names().get();
        assertThat(left).contains(longerChangelog);
        // Dead letters and savepoints stay (no --savepoints); the other internal topics are gone.
        assertThat(left.stream().filter(t -> t.startsWith(app + "-") && !t.startsWith(longer + "-")))
                .containsExactlyInAnyOrder(app + "-dlq", InternalTopic.SAVEPOINTS.of(app));
        assertThat(admin.admin()
                        .listConsumerGroupOffsets(app)
                        .partitionsToOffsetAndMetadata()
                        .get())
                .isEmpty();
    }

    /** {@code args} and the options that reach {@code kubernetes}. */
    private static String[] with(MockKubernetes kubernetes, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(kubernetes.options()));
        return all.toArray(String[]::new);
    }

    @Test
    void aMissingAclFailsTheStartNamingTheResourceAndTheOperation() throws Exception {
        String app = "secured-denied";
        List<AclBinding> planned = plannedAcls(app);
        grant(planned);
        // The internal topics exist from here on, made by the application's principal.
        Outcome topics = weir("topics", "create", "--app", app, "--topology", SecuredCounting.class.getName());
        assertThat(topics.code()).as(topics.err()).isEqualTo(Weir.OK);

        List<AclBinding> transactional = planned.stream()
                .filter(b -> b.pattern().resourceType() == ResourceType.TRANSACTIONAL_ID)
                .toList();
        assertThat(transactional).hasSize(2);
        revoke(transactional);
        assertThat(startFailure(app))
                .contains(
                        "secured-denied lacks ACLs on " + kafka.bootstrapServers(),
                        "not authorized to Write the transactional id prefix 'secured-denied-'"
                                + " (TransactionalIdAuthorizationException)",
                        "kafka-acls.sh --bootstrap-server " + kafka.bootstrapServers() + " --add --allow-principal"
                                + " '<principal>' --operation Write --transactional-id secured-denied- --resource-pattern-type"
                                + " prefixed");
        grant(transactional);

        // Describe alone passes the check (it cannot ask about Write); the first transaction is
        // refused, and the instance's failure names the prefix Kafka's error leaves out.
        List<AclBinding> write = transactional.stream()
                .filter(b -> b.entry().operation() == AclOperation.WRITE)
                .toList();
        revoke(write);
        try (WeirApp refused = start(app, "i1")) {
            await().atMost(CATCH_UP).until(() -> refused.failure().isPresent());
            String failure = refused.failure().orElseThrow().getMessage();
            SHOWN.add(failure);
            assertThat(failure)
                    .contains("secured-denied is not authorized to Write the transactional id prefix"
                            + " 'secured-denied-' (TransactionalIdAuthorizationException)");
        }
        grant(write);

        // The prefix allows All; a rule that denies writing the liveness topic takes that back.
        AclBinding denyLiveness = new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, app + "-liveness", PatternType.LITERAL),
                new AccessControlEntry(PRINCIPAL, "*", AclOperation.WRITE, AclPermissionType.DENY));
        grant(List.of(denyLiveness));
        assertThat(startFailure(app))
                .contains(
                        "not authorized to Write the topic 'secured-denied-liveness'",
                        "--operation All --topic secured-denied- --resource-pattern-type prefixed")
                .doesNotContain("transactional id");
        revoke(List.of(denyLiveness));
        try (WeirApp started = start(app, "i1")) {
            await().atMost(CATCH_UP).until(started::state, state -> state == WeirApp.State.RUNNING);
        }
    }

    /** What was logged so far; the appender adds under its own lock, from any thread. */
    private static List<ILoggingEvent> logged() {
        synchronized (LOGS) {
            return new ArrayList<>(LOGS.list);
        }
    }

    /** The start's failure message, all causes included. */
    private static String startFailure(String app) {
        StringBuilder messages = new StringBuilder();
        assertThatThrownBy(() -> start(app, "i1").close())
                .isInstanceOf(io.weir.errors.ClusterException.class)
                .satisfies(e -> {
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        messages.append(t).append('\n');
                    }
                });
        SHOWN.add(messages.toString());
        return messages.toString();
    }

    /** What {@code weir acls plan --format kafka-acls} prints, as ACL bindings. */
    private static List<AclBinding> plannedAcls(String app) {
        Outcome plan = weir(
                "acls",
                "plan",
                "--app",
                app,
                "--principal",
                PRINCIPAL,
                "--topology",
                SecuredCounting.class.getName(),
                "--tools",
                "--format",
                "kafka-acls");
        assertThat(plan.code()).as(plan.err()).isEqualTo(Weir.OK);
        List<AclBinding> acls = new ArrayList<>();
        plan.out().lines().filter(l -> l.startsWith("kafka-acls.sh")).forEach(l -> acls.add(binding(l)));
        return acls;
    }

    /** One {@code kafka-acls.sh --add} line as Kafka's tool would read it. */
    private static AclBinding binding(String line) {
        List<String> words = List.of(line.split(" "));
        String operation = words.get(words.indexOf("--operation") + 1)
                .replaceAll("([a-z])([A-Z])", "$1_$2")
                .toUpperCase(Locale.ROOT);
        ResourceType type = words.contains("--topic")
                ? ResourceType.TOPIC
                : words.contains("--group") ? ResourceType.GROUP : ResourceType.TRANSACTIONAL_ID;
        String flag =
                type == ResourceType.TOPIC ? "--topic" : type == ResourceType.GROUP ? "--group" : "--transactional-id";
        PatternType pattern = words.contains("prefixed") ? PatternType.PREFIXED : PatternType.LITERAL;
        return new AclBinding(
                new ResourcePattern(type, words.get(words.indexOf(flag) + 1), pattern),
                new AccessControlEntry(
                        words.get(words.indexOf("--allow-principal") + 1),
                        "*",
                        AclOperation.valueOf(operation),
                        AclPermissionType.ALLOW));
    }

    private static void grant(List<AclBinding> acls) throws Exception {
        admin.admin().createAcls(acls).all().get();
        awaitAcls(acls, true);
    }

    private static void revoke(List<AclBinding> acls) throws Exception {
        admin.admin()
                .deleteAcls(acls.stream().map(AclBinding::toFilter).toList())
                .all()
                .get();
        awaitAcls(acls, false);
    }

    /** Until the broker's authorizer has (or no longer has) every one of {@code acls}. */
    private static void awaitAcls(List<AclBinding> acls, boolean present) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Set<AclBinding> now = new HashSet<>(
                    admin.admin().describeAcls(AclBindingFilter.ANY).values().get());
            return acls.stream().allMatch(a -> now.contains(a) == present);
        });
    }

    private static WeirApp start(String app, String instance) throws IOException {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId(app)
                .configFile(configFile)
                .stateDir(Files.createTempDirectory("weir-secured-"))
                .instanceId(instance)
                .set("http.port", -1)
                .set("num.standby.replicas", 1)
                .environment(Map.of());
        return WeirApp.create(new SecuredCounting().get(), b.build()).start();
    }

    private static Map<String, Long> lastPerKey(List<ConsumerRecord<String, Long>> records) {
        Map<String, Long> last = new TreeMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }

    record Outcome(int code, String out, String err) {}

    /** A command as the application's principal, with its settings file. */
    private static Outcome weir(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--config");
        all.add(configFile.toString());
        int code = Weir.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
        SHOWN.add(out.toString());
        SHOWN.add(err.toString());
        return new Outcome(code, out.toString(), err.toString());
    }
}
