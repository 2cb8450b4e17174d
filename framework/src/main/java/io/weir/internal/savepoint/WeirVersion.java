package io.weir.internal.savepoint;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Weir's version as Maven built it, for manifests ({@code io/weir/version.properties}). */
final class WeirVersion {

    private WeirVersion() {
    }

    static String current() {
        try (InputStream in = WeirVersion.class.getResourceAsStream("/io/weir/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
