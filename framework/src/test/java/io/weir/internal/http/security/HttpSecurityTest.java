package io.weir.internal.http.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ConfigException;
import io.weir.internal.config.HttpSettings;
import io.weir.testing.TlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpSecurityTest {

    @TempDir
    Path dir;

    private static HttpSecurityOptions options(StoreFile keyStore, StoreFile trustStore, Path tokenFile) {
        return new HttpSecurityOptions(
                Optional.ofNullable(keyStore),
                Optional.ofNullable(trustStore),
                trustStore == null ? HttpSettings.ClientAuth.NONE : HttpSettings.ClientAuth.OPTIONAL,
                List.of(),
                Optional.ofNullable(tokenFile),
                false,
                false,
                Duration.ofSeconds(5));
    }

    private static StoreFile keyStore(Path path, String password) {
        return new StoreFile("http.tls.keystore.path", path, "PKCS12", password);
    }

    @Test
    void aMissingKeyStoreFailsNamingItsSetting() {
        assertThatThrownBy(() -> HttpSecurity.load(options(keyStore(dir.resolve("absent.p12"), "pw"), null, null)))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.keystore.path"))
                .hasMessageContaining("absent.p12");
    }

    @Test
    void aWrongPasswordFailsNamingTheSettingWithoutShowingEitherPassword() {
        Path ks = TlsFiles.create(dir, "ca").keyStore("server.p12", "server");
        assertThatThrownBy(() -> HttpSecurity.load(options(keyStore(ks, "not-the-password"), null, null)))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.keystore.path"))
                .hasMessageContaining("http.tls.keystore.password")
                .hasMessageNotContaining("not-the-password")
                .hasMessageNotContaining(TlsFiles.PASSWORD);
    }

    @Test
    void aFileThatIsNotAKeyStoreFailsNamingTheSetting() throws IOException {
        Path notAStore = Files.writeString(dir.resolve("tls.crt"), "-----BEGIN CERTIFICATE-----\n");
        assertThatThrownBy(() -> HttpSecurity.load(options(keyStore(notAStore, "pw"), null, null)))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.keystore.path"));
    }

    @Test
    void aTrustStoreWithoutAKeyFailsAsAKeyStore() {
        Path trust = TlsFiles.create(dir, "ca").trustStore("trust.p12");
        assertThatThrownBy(() -> HttpSecurity.load(options(keyStore(trust, TlsFiles.PASSWORD), null, null)))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.tls.keystore.path"))
                .hasMessageContaining("no private key");
    }

    @Test
    void anUnreadableTokenFileFailsNamingItsSetting() {
        assertThatThrownBy(() -> HttpSecurity.load(options(null, null, dir.resolve("token"))))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.auth.token.file"));
    }

    @Test
    void optionsAndStoresNeverShowSecrets() {
        StoreFile ks = keyStore(dir.resolve("k.p12"), "store-secret");
        HttpSecurityOptions o = new HttpSecurityOptions(
                Optional.of(ks),
                Optional.empty(),
                HttpSettings.ClientAuth.NONE,
                List.of("token-secret"),
                Optional.empty(),
                false,
                false,
                Duration.ofSeconds(5));
        assertThat(o.toString()).doesNotContain("store-secret", "token-secret").contains("k.p12");
    }

    @Test
    void withoutTlsThereIsNoContext() {
        try (HttpSecurity security = HttpSecurity.load(HttpSecurityOptions.none())) {
            assertThat(security.serverContext()).isEmpty();
        }
    }
}
