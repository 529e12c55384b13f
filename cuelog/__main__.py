from cuelog.cli import main

main()
