package io.weir.internal.http.security;

import io.weir.errors.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * A key store or trust store file as configured: where it is, its format and password, and the
 * setting that names it (for error messages). {@link #toString} leaves the password out.
 *
 * @param setting  the setting of the path ({@code http.tls.keystore.path}), named in every error
 * @param type     {@code PKCS12} or {@code JKS}
 * @param password a secret; empty for none
 */
public record StoreFile(String setting, Path path, String type, String password) {

    /**
     * The store in {@code content} (this file's bytes).
     *
     * @throws IllegalArgumentException saying why it is not a usable store (never the password)
     */
    KeyStore parse(byte[] content) {
        try {
            KeyStore store = KeyStore.getInstance(type);
            store.load(new ByteArrayInputStream(content), password.toCharArray());
            if (store.size() == 0) {
                throw new IllegalArgumentException("it holds no entry");
            }
            return store;
        } catch (IOException | GeneralSecurityException e) {
            // KeyStore.load reports a wrong password as an IOException caused by UnrecoverableKeyException.
            throw new IllegalArgumentException(
                    "not a " + type + " store this password opens (" + e.getMessage()
                            + "); check " + setting.replace(".path", ".type") + " and "
                            + setting.replace(".path", ".password"),
                    e);
        }
    }

    /** A start-up failure about this file, naming its setting. */
    ConfigException problem(String what) {
        return new ConfigException(setting, path + ": " + what);
    }

    @Override
    public String toString() {
        return "StoreFile[" + setting + "=" + path + ", type=" + type + "]";
    }
}
