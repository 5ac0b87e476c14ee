import DILintEngine
print(DILint.libclangVersion)
