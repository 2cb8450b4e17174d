package io.weir.errors;

/**
 * A setting is missing or invalid. Thrown at start-up, before any client is created; the message
 * names the setting, the value given and what is allowed.
 */
public class ConfigException extends WeirException {

    private final String setting;

    public ConfigException(String setting, String message) {
        super("invalid setting '" + setting + "': " + message);
        this.setting = setting;
    }

    /** The name of the offending setting, for example {@code commit.interval.ms}. */
    public String setting() {
        return setting;
    }
}
