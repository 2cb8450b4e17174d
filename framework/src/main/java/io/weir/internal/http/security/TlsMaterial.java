package io.weir.internal.http.security;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * What one version of the key store or trust store file yields: the JDK's key and trust managers
 * built from it. Parsing throws {@link IllegalArgumentException} with a reason that never quotes a
 * password, as {@link WatchedFile} wants.
 *
 * @param keyManager   the instance's key and certificate chain (key store only)
 * @param trustManager the trust store's certificates; for a key store, the certificates of its own
 *                     chains, which is what a peer trusts when no trust store is set (every instance
 *                     serving one certificate, or chains that include their CA)
 */
record TlsMaterial(X509ExtendedKeyManager keyManager, X509ExtendedTrustManager trustManager) {

    static TlsMaterial keyStore(StoreFile file, byte[] content) {
        KeyStore store = file.parse(content);
        try {
            KeyStore chains = KeyStore.getInstance(KeyStore.getDefaultType());
            chains.load(null, null);
            boolean hasKey = false;
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    hasKey = true;
                    Certificate[] chain = store.getCertificateChain(alias);
                    for (int i = 0; chain != null && i < chain.length; i++) {
                        chains.setCertificateEntry(alias + "-" + i, chain[i]);
                    }
                }
            }
            if (!hasKey) {
                throw new IllegalArgumentException(
                        "it holds no private key; a key store needs the server's key and" + " certificate chain");
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, file.password().toCharArray());
            return new TlsMaterial(only(X509ExtendedKeyManager.class, kmf.getKeyManagers()), trust(chains));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "its key cannot be read with the store's password (" + e.getMessage() + ")", e);
        }
    }

    static TlsMaterial trustStore(StoreFile file, byte[] content) {
        KeyStore store = file.parse(content);
        try {
            return new TlsMaterial(null, trust(store));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("it holds no certificate to trust (" + e.getMessage() + ")", e);
        }
    }

    private static X509ExtendedTrustManager trust(KeyStore store) throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        return only(X509ExtendedTrustManager.class, tmf.getTrustManagers());
    }

    private static <M> M only(Class<M> type, Object[] managers) {
        for (Object m : managers) {
            if (type.isInstance(m)) {
                return type.cast(m);
            }
        }
        throw new IllegalStateException("the JDK's default factory made no " + type.getSimpleName());
    }
}
