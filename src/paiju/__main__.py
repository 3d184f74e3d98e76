"""``python -m paiju`` is the ``paiju`` command."""

from paiju.cli import main

if __name__ == "__main__":
    main()
