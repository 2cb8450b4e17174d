package io.weir.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A broker listener secured as in production: SASL over TLS ({@code SASL_SSL}) with SCRAM-SHA-512
 * or PLAIN, Kafka's {@code StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false},
 * and one super user (the test's own admin). The TLS certificate is made for this cluster only
 * (self-signed, for {@code 127.0.0.1} and {@code localhost}, two days valid) with the JDK's
 * {@code keytool}; clients trust it through a PKCS12 trust store. Every password is random.
 *
 * <p>Give it to {@link EmbeddedKafka.Builder#security(KafkaSecurity)}; then
 * {@link #clientSettings(String)} are the settings a client of a user needs (the super user's are
 * what {@link KafkaCluster#clientSettings()} returns). The controller listener stays
 * {@code PLAINTEXT} on loopback: controllers and brokers talk to each other as the anonymous
 * super user, so only the broker listener is exposed to clients. Users are known from the start
 * (SCRAM credentials are written when storage is formatted, PLAIN users into the listener's JAAS
 * settings); add ACLs with the super user's admin client.
 */
public final class KafkaSecurity {

    /** The SASL mechanisms a secured test broker offers. */
    public enum Mechanism {
        SCRAM_SHA_512("SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule"),
        PLAIN("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule");

        private final String kafkaName;
        private final String loginModule;

        Mechanism(String kafkaName, String loginModule) {
            this.kafkaName = kafkaName;
            this.loginModule = loginModule;
        }

        /** As {@code sasl.mechanism} takes it. */
        public String kafkaName() {
            return kafkaName;
        }
    }

    static final String LISTENER = "SASL_SSL";
    /** The user {@link KafkaCluster#clientSettings()} connects as. */
    public static final String SUPER_USER = "admin";

    private final Mechanism mechanism;
    private final Map<String, String> passwords = new LinkedHashMap<>();
    private final String keyStorePassword = secret();
    private final String trustStorePassword = secret();
    private Path keyStore;
    private Path trustStore;

    private KafkaSecurity(Mechanism mechanism) {
        this.mechanism = mechanism;
        passwords.put(SUPER_USER, secret());
    }

    /** {@code SASL_SSL} with {@code mechanism} and the super user {@value #SUPER_USER}. */
    public static KafkaSecurity saslSsl(Mechanism mechanism) {
        return new KafkaSecurity(mechanism);
    }

    /** Adds a user with a random password; before the cluster starts. */
    public KafkaSecurity user(String name) {
        if (keyStore != null) {
            throw new IllegalStateException("users are added before the cluster starts");
        }
        passwords.put(name, secret());
        return this;
    }

    /** {@code User:name}, as ACLs name the principal. */
    public static String principal(String user) {
        return "User:" + user;
    }

    /** The password of {@code user}, for tests that check it is never shown. */
    public String password(String user) {
        String p = passwords.get(user);
        if (p == null) {
            throw new IllegalArgumentException("no user " + user + "; users: " + passwords.keySet());
        }
        return p;
    }

    /** Every secret of this cluster (passwords of users and stores), for tests that check none is shown. */
    public List<String> secrets() {
        List<String> all = new ArrayList<>(passwords.values());
        all.add(keyStorePassword);
        all.add(trustStorePassword);
        return all;
    }

    /** The Kafka client settings of {@code user}: protocol, mechanism, JAAS login, trust store. */
    public Map<String, String> clientSettings(String user) {
        requireStarted();
        Map<String, String> s = new LinkedHashMap<>();
        s.put("security.protocol", "SASL_SSL");
        s.put("sasl.mechanism", mechanism.kafkaName);
        s.put("sasl.jaas.config", jaas(user, password(user), ""));
        s.put("ssl.truststore.location", trustStore.toString());
        s.put("ssl.truststore.type", "PKCS12");
        s.put("ssl.truststore.password", trustStorePassword);
        return s;
    }

    private void requireStarted() {
        if (trustStore == null) {
            throw new IllegalStateException("the cluster has not started: no certificate yet");
        }
    }

    /** Makes the broker's certificate and the clients' trust store under {@code dir}. */
    void createCertificate(Path dir) {
        keyStore = dir.resolve("broker.p12");
        trustStore = dir.resolve("truststore.p12");
        Path certificate = dir.resolve("broker.pem");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:" + NodeSpec.HOST + ",dns:localhost",
                "-validity",
                "2",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                keyStorePassword,
                "-keypass",
                keyStorePassword);
        keytool(
                "-exportcert",
                "-alias",
                "broker",
                "-rfc",
                "-file",
                certificate.toString(),
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                keyStorePassword);
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "broker",
                "-file",
                certificate.toString(),
                "-keystore",
                trustStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                trustStorePassword);
    }

    /** The broker's listener, TLS, SASL and authorizer settings. */
    Map<String, String> brokerSettings() {
        requireStarted();
        String mech = mechanism.kafkaName;
        String prefix =
                "listener.name." + LISTENER.toLowerCase(Locale.ROOT) + "." + mech.toLowerCase(Locale.ROOT) + ".";
        StringBuilder plainUsers = new StringBuilder();
        if (mechanism == Mechanism.PLAIN) {
            passwords.forEach((u, p) -> plainUsers
                    .append(" user_")
                    .append(u)
                    .append("=\"")
                    .append(p)
                    .append('"'));
        }
        Map<String, String> s = new LinkedHashMap<>();
        s.put("sasl.enabled.mechanisms", mech);
        s.put("sasl.mechanism.inter.broker.protocol", mech);
        s.put(prefix + "sasl.jaas.config", jaas(SUPER_USER, password(SUPER_USER), plainUsers.toString()));
        s.put("ssl.keystore.location", keyStore.toString());
        s.put("ssl.keystore.type", "PKCS12");
        s.put("ssl.keystore.password", keyStorePassword);
        s.put("ssl.key.password", keyStorePassword);
        s.put("ssl.truststore.location", trustStore.toString());
        s.put("ssl.truststore.type", "PKCS12");
        s.put("ssl.truststore.password", trustStorePassword);
        s.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        s.put("allow.everyone.if.no.acl.found", "false");
        // ANONYMOUS: the PLAINTEXT controller listener, which only the nodes use.
        s.put("super.users", principal(SUPER_USER) + ";User:ANONYMOUS");
        return s;
    }

    /** {@code kafka-storage format} arguments that write the SCRAM credentials of every user. */
    List<String> formatArguments() {
        List<String> args = new ArrayList<>();
        if (mechanism == Mechanism.SCRAM_SHA_512) {
            passwords.forEach((u, p) -> {
                args.add("--add-scram");
                args.add(mechanism.kafkaName + "=[name=" + u + ",password=" + p + "]");
            });
        }
        return args;
    }

    private String jaas(String user, String password, String more) {
        return mechanism.loginModule + " required username=\"" + user + "\" password=\"" + password + "\"" + more + ";";
    }

    private static String secret() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run keytool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }
}
