//! The Composer package of the generated client, and its autoloader for projects without
//! Composer.

use crate::plan::SdkPlan;

/// A JSON string literal.
fn json(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// `composer.json`: `baas/client` at the client's version, needing `baas/runtime`.
pub fn composer_json(plan: &SdkPlan) -> String {
    let description = format!(
        "The {} client for PHP, generated from the spec: typed requests and answers, one method \
         per operation (do not edit; run `cargo run -p baas-codegen`)",
        plan.title
    );
    format!(
        r#"{{
    "name": "baas/client",
    "description": {},
    "type": "library",
    "version": {},
    "license": "proprietary",
    "keywords": ["baas", "banking", "sdk", "generated"],
    "require": {{
        "php": ">=8.1",
        "baas/runtime": "^{}"
    }},
    "autoload": {{
        "psr-4": {{
            "Baas\\Client\\": "src/"
        }}
    }}
}}
"#,
        json(&description),
        json(&plan.client_version),
        super::RUNTIME_VERSION
    )
}

/// `autoload.php`: PSR-4 for `Baas\Client` without Composer (require the runtime's too).
pub fn autoload() -> String {
    let mut text = String::from(super::HEADER);
    text.push_str(
        r"
declare(strict_types=1);

/*
 * A PSR-4 autoloader for the `Baas\Client` namespace (src/), for projects without
 * Composer. Require the runtime's autoloader too:
 *
 *     require 'path/to/php/autoload.php';            // baas/runtime
 *     require 'path/to/generated/php/autoload.php';  // baas/client
 */

spl_autoload_register(static function (string $class): void {
    $prefix = 'Baas\\Client\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_is_json_naming_the_package_and_the_runtime() {
        let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let checked = crate::check_spec(&spec).expect("spec/ checks");
        let plan = crate::plan::build(&checked.api);
        let manifest: serde_json::Value =
            serde_json::from_str(&composer_json(&plan)).expect("composer.json is JSON");
        assert_eq!(manifest["name"], "baas/client");
        assert_eq!(manifest["version"], plan.client_version.as_str());
        assert_eq!(manifest["autoload"]["psr-4"]["Baas\\Client\\"], "src/");
        assert_eq!(
            manifest["require"]["baas/runtime"],
            format!("^{}", super::super::RUNTIME_VERSION)
        );
    }
}
