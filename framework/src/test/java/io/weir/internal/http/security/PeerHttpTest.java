package io.weir.internal.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.config.HttpSettings;
import io.weir.testing.TlsFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client side alone; {@code SecuredOpsServerTest} has peers calling a secured server. */
class PeerHttpTest {

    @TempDir
    Path dir;

    @Test
    void withoutTlsOrTokensItCallsPlainHttpWithoutAuthorization() {
        try (HttpSecurity security = HttpSecurity.load(HttpSecurityOptions.none())) {
            PeerHttp peers = PeerHttp.of(security);
            assertThat(peers.scheme()).isEqualTo("http");
            assertThat(peers.authorization()).isEmpty();
            assertThat(peers.request("weir-1.weir", 8080, "/stores/s/keys/k?x=1")
                            .GET()
                            .build()
                            .headers()
                            .map())
                    .doesNotContainKey("Authorization");
            assertThat(peers.uri("weir-1.weir", 8080, "/info")).hasToString("http://weir-1.weir:8080/info");
        }
    }

    @Test
    void sendsTheFirstTokenOfTheSettingAndTrustsItsOwnChainWithoutATrustStore() throws Exception {
        Path keyStore = TlsFiles.create(dir, "ca").keyStore("server.p12", "server");
        try (HttpSecurity security = HttpSecurity.load(new HttpSecurityOptions(
                Optional.of(new StoreFile("http.tls.keystore.path", keyStore, "PKCS12", TlsFiles.PASSWORD)),
                Optional.empty(),
                HttpSettings.ClientAuth.NONE,
                List.of("first", "second"),
                Optional.empty(),
                false,
                false,
                Duration.ofSeconds(5)))) {
            PeerHttp peers = PeerHttp.of(security);
            assertThat(peers.scheme()).isEqualTo("https");
            assertThat(peers.authorization()).hasValue("Bearer first");
            assertThat(peers.request("h", 1, "/admin/leave")
                            .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                            .build()
                            .headers()
                            .firstValue("Authorization"))
                    .hasValue("Bearer first");
            // The CA at the end of the instance's own chain is what it trusts in a peer.
            assertThat(security.peerContext()).isPresent();
            assertThat(peers.client().sslContext())
                    .isSameAs(security.peerContext().get());
        }
    }
}
