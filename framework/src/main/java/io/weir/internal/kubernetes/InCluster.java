package io.weir.internal.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Kubernetes' in-cluster convention, exactly as a pod sees it (as client-go's
 * {@code rest.InClusterConfig} reads it): the API server at
 * {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT}, and the service account's
 * {@code token}, {@code ca.crt} and {@code namespace} files. The token is read again on every call,
 * since kubelets rotate projected tokens (about hourly) and a long-running pod must not keep an
 * expired one. Another directory of those files serves tests and a process run outside a pod with
 * a service account's files copied out. A missing piece is a {@link KubernetesApiException} that
 * says what is missing and what usually causes it.
 */
final class InCluster {

    private InCluster() {}

    /** {@value KubernetesApi#SERVICE_ACCOUNT_DIR}, or the directory {@value KubernetesApi#SERVICE_ACCOUNT_DIR_PROPERTY} names. */
    static Path serviceAccountDir() {
        return Path.of(
                System.getProperty(KubernetesApi.SERVICE_ACCOUNT_DIR_PROPERTY, KubernetesApi.SERVICE_ACCOUNT_DIR));
    }

    /** The API as a pod with environment {@code env} and service account files in {@code dir} reaches it. */
    static KubernetesApi api(Map<String, String> env, Path dir) {
        String host = env.get("KUBERNETES_SERVICE_HOST");
        String port = env.get("KUBERNETES_SERVICE_PORT");
        if (host == null || host.isBlank() || port == null || port.isBlank()) {
            throw new KubernetesApiException("not running in a Kubernetes pod: KUBERNETES_SERVICE_HOST and"
                    + " KUBERNETES_SERVICE_PORT are not set (Kubernetes sets them in every container)");
        }
        Path tokenFile = dir.resolve("token");
        if (!Files.isReadable(tokenFile)) {
            throw new KubernetesApiException("the pod has no service account token at " + tokenFile + ": its"
                    + " service account token is not mounted (automountServiceAccountToken: false on the pod or"
                    + " its ServiceAccount); mount it, and bind a Role that allows the calls Weir makes");
        }
        Path namespaceFile = dir.resolve("namespace");
        String namespace;
        try {
            namespace = Files.readString(namespaceFile, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new KubernetesApiException("cannot read the pod's namespace from " + namespaceFile + ": " + e);
        }
        Path ca = dir.resolve("ca.crt");
        // An IPv6 service address needs brackets in a URL.
        String authority = (host.contains(":") ? "[" + host + "]" : host) + ":" + port.trim();
        URI server = URI.create("https://" + authority);
        return new KubernetesApi(
                server,
                () -> readToken(tokenFile),
                Files.exists(ca) ? ca : null,
                namespace,
                KubernetesApi.DEFAULT_TIMEOUT);
    }

    private static String readToken(Path file) {
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (token.isEmpty()) {
                throw new KubernetesApiException("the service account token file " + file + " is empty");
            }
            return token;
        } catch (NoSuchFileException e) {
            throw new KubernetesApiException("the service account token file " + file + " is gone");
        } catch (IOException e) {
            throw new KubernetesApiException("cannot read the service account token " + file + ": " + e);
        }
    }

    /** TLS that trusts the certificates of {@code caCertificate} (PEM) alone. */
    static SSLContext trusting(Path caCertificate) {
        try (InputStream in = Files.newInputStream(caCertificate)) {
            Collection<? extends Certificate> certificates =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new KubernetesApiException("no certificate in the Kubernetes CA file " + caCertificate);
            }
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate c : certificates) {
                trusted.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new KubernetesApiException("cannot read the Kubernetes CA certificate " + caCertificate + ": " + e);
        }
    }
}
