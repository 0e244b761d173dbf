//! The Composer package of the generated client, and its autoloader for projects without
//! Composer.

use crate::plan::SdkPlan;

/// `composer.json`: `baas/client` at the client's version, needing `baas/runtime`.
pub fn composer_json(plan: &SdkPlan) -> String {
    let manifest = serde_json::json!({
        "name": "baas/client",
        "description": format!("The {} client for PHP, generated from the spec: typed requests and answers, one method per operation (do not edit; run `cargo run -p baas-codegen`)", plan.title),
        "type": "library",
        "license": "proprietary",
        "version": plan.client_version,
        "keywords": ["baas", "banking", "sdk", "generated"],
        "require": {
            "php": ">=8.1",
            "baas/runtime": format!("^{}", super::RUNTIME_VERSION),
        },
        "autoload": {
            "psr-4": { "Baas\\Client\\": "src/" }
        }
    });
    let mut text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    text.push('\n');
    text
}

/// `autoload.php`: PSR-4 for `Baas\Client` without Composer (require the runtime's too).
pub fn autoload() -> String {
    let mut text = String::from(super::HEADER);
    text.push_str(
        "\ndeclare(strict_types=1);\n\n\
         /*\n \
         * A PSR-4 autoloader for the `Baas\\Client` namespace (src/), for projects without\n \
         * Composer. Require the runtime's autoloader too:\n \
         *\n \
         *     require 'path/to/php/autoload.php';            // baas/runtime\n \
         *     require 'path/to/generated/php/autoload.php';  // baas/client\n \
         */\n\n\
         spl_autoload_register(static function (string $class): void {\n    \
             $prefix = 'Baas\\\\Client\\\\';\n    \
             if (strncmp($class, $prefix, strlen($prefix)) !== 0) {\n        \
                 return;\n    \
             }\n    \
             $file = __DIR__ . '/src/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';\n    \
             if (is_file($file)) {\n        \
                 require $file;\n    \
             }\n\
         });\n",
    );
    text
}
