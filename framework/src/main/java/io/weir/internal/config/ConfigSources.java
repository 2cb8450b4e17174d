package io.weir.internal.config;

import io.weir.errors.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Collects the raw settings of one configuration from its sources and merges them. Precedence,
 * weakest first:
 * <ol>
 *   <li>properties files the code names ({@link #packagedFile}: defaults packaged with it);</li>
 *   <li>values set in code ({@link #set});</li>
 *   <li>the deployment's properties file: {@code --config FILE} ({@link #args}) or
 *       {@link #configFile}, else the file the environment variable {@value EnvironmentVariables#CONFIG_FILE}
 *       names;</li>
 *   <li>environment variables {@code WEIR_<NAME>} ({@link EnvironmentVariables}).</li>
 * </ol>
 * Not thread-safe: one builder fills it on one thread.
 */
public final class ConfigSources {

    private static final String CONFIG_ARG = "--config";

    private final Map<String, String> packaged = new LinkedHashMap<>();
    private final Map<String, String> code = new LinkedHashMap<>();
    private Path configFile;
    private Map<String, String> environment = System.getenv();

    /**
     * Reads a properties file now; every other source overrides it.
     *
     * @throws ConfigException if the file cannot be read
     */
    public void packagedFile(Path file) {
        packaged.putAll(read(file, "propertiesFile"));
    }

    public void set(String name, String value) {
        code.put(name, value);
    }

    /** The deployment's properties file, as {@code --config FILE} gives it; read by {@link #merge()}. */
    public void configFile(Path file) {
        this.configFile = file;
    }

    /**
     * Takes an application's command line: {@code --config FILE} or {@code --config=FILE}, nothing else.
     *
     * @throws ConfigException naming an argument that is not one of those, or a {@code --config} without a file
     */
    public void args(String... args) {
        Path file = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value;
            if (a.equals(CONFIG_ARG)) {
                value = i + 1 < args.length ? args[++i] : "";
            } else if (a.startsWith(CONFIG_ARG + "=")) {
                value = a.substring(CONFIG_ARG.length() + 1);
            } else {
                throw new ConfigException(a, "unknown command-line argument; allowed: --config FILE or --config=FILE");
            }
            if (value.isBlank()) {
                throw new ConfigException(CONFIG_ARG, "needs a file: --config FILE or --config=FILE");
            }
            if (file != null) {
                throw new ConfigException(CONFIG_ARG, "given twice (" + file + ", " + value + "); allowed: one file");
            }
            file = Path.of(value);
        }
        if (file != null) {
            configFile = file;
        }
    }

    /** Uses these variables instead of the process environment. */
    public void environment(Map<String, String> env) {
        this.environment = Map.copyOf(env);
    }

    /**
     * Reads the deployment file and the environment and merges all sources by precedence. Logs one
     * WARN if it ignored {@code WEIR_*} variables.
     *
     * @throws ConfigException naming {@code --config} or {@value EnvironmentVariables#CONFIG_FILE}
     *                         and the path, if the deployment file cannot be read
     */
    public Map<String, String> merge() {
        Map<String, String> merged = new LinkedHashMap<>(packaged);
        merged.putAll(code);
        String envFile = environment.get(EnvironmentVariables.CONFIG_FILE);
        if (configFile != null) {
            merged.putAll(read(configFile, CONFIG_ARG));
        } else if (envFile != null) {
            if (envFile.isBlank()) {
                throw new ConfigException(EnvironmentVariables.CONFIG_FILE, "is empty; it must name a properties file");
            }
            merged.putAll(read(Path.of(envFile.trim()), EnvironmentVariables.CONFIG_FILE));
        }
        merged.putAll(EnvironmentVariables.map(environment).settings());
        return merged;
    }

    private static Map<String, String> read(Path file, String source) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            // IllegalArgumentException: a malformed \\uXXXX escape in the file.
            throw new ConfigException(source, "cannot read the properties file " + file + ": " + e);
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(n -> m.put(n, p.getProperty(n)));
        return m;
    }
}
